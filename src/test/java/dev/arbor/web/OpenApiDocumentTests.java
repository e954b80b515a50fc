package dev.arbor.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.arbor.web.edge.ProblemType;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document: complete enough to use from Swagger UI with no set-up, and committed as
 * {@code openapi/openapi.yaml} exactly as generated. After an API change, write the file anew with
 * {@code ./mvnw test -Dtest=OpenApiDocumentTests -Darbor.openapi.write=true}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class OpenApiDocumentTests {

	private static final Path COMMITTED = Path.of("openapi", "openapi.yaml");

	/** API.md's operations of the sections this document covers so far. */
	private static final List<String> OPERATIONS = List.of("post /sessions", "get /sessions", "get /sessions/{sessionId}",
			"delete /sessions/{sessionId}", "post /sessions/import", "get /sessions/{sessionId}/export", "get /sessions/{sessionId}/lineage",
			"post /sessions/{sessionId}/entries", "get /sessions/{sessionId}/entries",
			"get /sessions/{sessionId}/entries/{entryId}", "get /sessions/{sessionId}/entries/{entryId}/children",
			"get /sessions/{sessionId}/entries/{entryId}/path", "get /sessions/{sessionId}/path",
			"get /sessions/{sessionId}/tree", "get /sessions/{sessionId}/tree/outline",
			"get /sessions/{sessionId}/tree/rows", "get /sessions/{sessionId}/leaf",
			"put /sessions/{sessionId}/leaf", "post /sessions/{sessionId}/branch-summaries",
			"put /sessions/{sessionId}/name", "get /sessions/{sessionId}/labels", "put /sessions/{sessionId}/labels/{entryId}",
			"delete /sessions/{sessionId}/labels/{entryId}", "get /sessions/{sessionId}/context",
			"post /sessions/{sessionId}/navigate", "delete /sessions/{sessionId}/navigations/{requestId}",
			"post /sessions/{sessionId}/branch", "post /sessions/{sessionId}/fork",
			"post /sessions/{sessionId}/branched-sessions", "get /sessions/{sessionId}/events", "get /events", "get /search");

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	@Test
	void committedDocumentShouldEqualTheGeneratedOne() throws IOException {
		String generated = ApiDocument.text(this.port, "/v3/api-docs.yaml");
		if (Boolean.getBoolean("arbor.openapi.write")) {
			Files.createDirectories(COMMITTED.getParent());
			Files.writeString(COMMITTED, generated);
		}
		assertThat(COMMITTED).as("openapi/openapi.yaml is out of date; write it with "
				+ "./mvnw test -Dtest=OpenApiDocumentTests -Darbor.openapi.write=true")
			.hasContent(generated);
	}

	@Test
	void documentShouldDescribeEveryOperationOfTheApiWithASummaryAndADescription() {
		JsonNode paths = document().get("paths");
		List<String> found = new ArrayList<>();
		SoftAssertions.assertSoftly(softly -> {
			for (Map.Entry<String, JsonNode> path : paths.properties()) {
				for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
					String name = operation.getKey() + " " + path.getKey();
					found.add(name);
					softly.assertThat(operation.getValue().path("summary").asString()).as(name + " summary").isNotBlank();
					softly.assertThat(operation.getValue().path("description").asString())
						.as(name + " description")
						.isNotBlank();
					softly.assertThat(operation.getValue().path("responses").size()).as(name + " responses").isGreaterThan(1);
				}
			}
		});
		assertThat(found).containsExactlyInAnyOrderElementsOf(OPERATIONS);
	}

	@Test
	void everyParameterAndSchemaShouldBeDescribedOrShowAnExample() {
		JsonNode document = document();
		SoftAssertions.assertSoftly(softly -> {
			for (Map.Entry<String, JsonNode> path : document.get("paths").properties()) {
				for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
					for (JsonNode parameter : operation.getValue().path("parameters")) {
						softly.assertThat(parameter.has("description"))
							.as(operation.getKey() + " " + path.getKey() + " " + parameter.get("name").asString())
							.isTrue();
					}
				}
			}
			for (Map.Entry<String, JsonNode> schema : document.get("components").get("schemas").properties()) {
				softly.assertThat(schema.getValue().has("description")).as(schema.getKey()).isTrue();
				for (Map.Entry<String, JsonNode> property : schema.getValue().path("properties").properties()) {
					JsonNode value = property.getValue();
					boolean reference = value.has("$ref") || value.path("items").has("$ref")
							|| value.path("anyOf").path(0).has("$ref");
					softly.assertThat(value.has("example") || reference)
						.as(schema.getKey() + "." + property.getKey() + " example")
						.isTrue();
					softly.assertThat(value.has("description") || reference)
						.as(schema.getKey() + "." + property.getKey() + " description")
						.isTrue();
				}
			}
		});
	}

	@Test
	void swaggerUiShouldOpenTheDocumentWithNoSetUp() {
		this.client.get()
			.uri("/swagger-ui.html")
			.exchange()
			.expectStatus()
			.isFound()
			.expectHeader()
			.valueMatches(HttpHeaders.LOCATION, ".*/swagger-ui/index.html");
		this.client.get().uri("/swagger-ui/index.html").exchange().expectStatus().isOk();
		String config = new String(this.client.get()
			.uri("/v3/api-docs/swagger-config")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody(), StandardCharsets.UTF_8);
		assertThat(config).contains("\"url\":\"/v3/api-docs\"");
	}

	@Test
	void withoutApiKeysTheDocumentShouldAskForNone() {
		JsonNode document = document();
		assertThat(document.has("security")).isFalse();
		assertThat(document.path("components").has("securitySchemes")).isFalse();
	}

	@Test
	void documentShouldReferToNothingOutsideItAndHoldNoTabs() {
		String document = ApiDocument.text(this.port, "/v3/api-docs");
		assertThat(document).doesNotContain("\\t", "SESSION-TREE", "API.md", "../", "shared/spec");
		assertThat(document().get("info").has("license")).isFalse();
	}

	@Test
	void optionalHeadersShouldCarryNoExampleForSwaggerUiToSend() {
		SoftAssertions.assertSoftly(softly -> {
			for (ApiDocument.Operation operation : ApiDocument.fetch(this.port).operations()) {
				for (JsonNode parameter : operation.node().path("parameters")) {
					if ("header".equals(parameter.get("in").asString())) {
						softly.assertThat(parameter.has("example") || parameter.path("schema").has("example"))
							.as(operation.name() + " " + parameter.get("name").asString())
							.isFalse();
					}
				}
			}
		});
	}

	/** Typed clients make every property optional that a schema does not list as required. */
	@Test
	void everyObjectOfASuccessfulResponseShouldListItsRequiredProperties() {
		ApiDocument document = ApiDocument.fetch(this.port);
		Map<String, JsonNode> objects = new LinkedHashMap<>();
		for (ApiDocument.Operation operation : document.operations()) {
			for (Map.Entry<String, JsonNode> response : operation.node().get("responses").properties()) {
				if (response.getKey().startsWith("2")) {
					for (JsonNode media : response.getValue().path("content")) {
						collectObjects(document, media.path("schema"), operation.name() + " " + response.getKey(), objects);
					}
				}
			}
		}
		assertThat(objects).containsKeys("#/components/schemas/Session", "#/components/schemas/NavigateResponse",
				"#/components/schemas/TreeNode", "#/components/schemas/Entry");
		SoftAssertions.assertSoftly(softly -> objects.forEach((where, schema) -> {
			softly.assertThat(schema.path("required").isArray()).as(where + " lists required properties").isTrue();
			for (JsonNode required : schema.path("required")) {
				softly.assertThat(schema.path("properties").has(required.asString()))
					.as(where + " has its required " + required.asString())
					.isTrue();
			}
		}));
	}

	@Test
	void everyErrorResponseShouldShowAnExampleOfItsOwnStatusForEachTypeItMayHave() {
		ApiDocument document = ApiDocument.fetch(this.port);
		SoftAssertions.assertSoftly(softly -> {
			for (ApiDocument.Operation operation : document.operations()) {
				for (Map.Entry<String, JsonNode> response : operation.node().get("responses").properties()) {
					JsonNode problem = response.getValue().path("content").path("application/problem+json");
					if (problem.isMissingNode()) {
						continue;
					}
					String where = operation.name() + " " + response.getKey();
					softly.assertThat(problem.path("examples").size()).as(where + " examples").isPositive();
					for (Map.Entry<String, JsonNode> example : problem.path("examples").properties()) {
						JsonNode value = document.dereference(example.getValue()).path("value");
						softly.assertThat(value.path("status").asInt()).as(where + " " + example.getKey()).hasToString(response.getKey());
						softly.assertThat(value.path("type").asString()).as(where + " " + example.getKey())
							.isEqualTo(ProblemType.BASE_URI + example.getKey());
					}
				}
			}
		});
	}

	/** Object schemas reachable from this one, by where they are defined; maps and free JSON have no properties. */
	private static void collectObjects(ApiDocument document, JsonNode schema, String where, Map<String, JsonNode> objects) {
		if (schema.isMissingNode()) {
			return;
		}
		if (schema.has("$ref")) {
			String ref = schema.get("$ref").asString();
			if (!objects.containsKey(ref)) {
				JsonNode target = document.resolve(ref);
				if (target.has("properties")) {
					objects.put(ref, target);
				}
				collectObjects(document, target, ref, objects);
			}
			return;
		}
		if (schema.has("properties") && !objects.containsKey(where)) {
			objects.put(where, schema);
		}
		for (JsonNode property : schema.path("properties")) {
			collectObjects(document, property, where, objects);
		}
		collectObjects(document, schema.path("items"), where, objects);
		collectObjects(document, schema.path("additionalProperties"), where, objects);
		for (String composition : List.of("oneOf", "anyOf", "allOf")) {
			for (JsonNode part : schema.path(composition)) {
				collectObjects(document, part, where, objects);
			}
		}
	}

	private JsonNode document() {
		return ApiDocument.fetch(this.port).root();
	}

}

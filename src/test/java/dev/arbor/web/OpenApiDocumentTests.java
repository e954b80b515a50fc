package dev.arbor.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.arbor.session.Json;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
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
			"delete /sessions/{sessionId}", "post /sessions/import", "get /sessions/{sessionId}/export",
			"post /sessions/{sessionId}/entries", "get /sessions/{sessionId}/entries",
			"get /sessions/{sessionId}/entries/{entryId}", "get /sessions/{sessionId}/entries/{entryId}/children",
			"get /sessions/{sessionId}/entries/{entryId}/path", "get /sessions/{sessionId}/path",
			"get /sessions/{sessionId}/tree", "get /sessions/{sessionId}/tree/rows", "get /sessions/{sessionId}/leaf",
			"put /sessions/{sessionId}/leaf", "post /sessions/{sessionId}/branch-summaries",
			"get /sessions/{sessionId}/labels", "put /sessions/{sessionId}/labels/{entryId}",
			"delete /sessions/{sessionId}/labels/{entryId}", "get /sessions/{sessionId}/context",
			"post /sessions/{sessionId}/navigate", "delete /sessions/{sessionId}/navigations/{requestId}",
			"post /sessions/{sessionId}/branch", "post /sessions/{sessionId}/fork",
			"post /sessions/{sessionId}/branched-sessions", "get /sessions/{sessionId}/events", "get /events");

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Autowired
	RestTestClient client;

	@Test
	void committedDocumentShouldEqualTheGeneratedOne() throws IOException {
		String generated = new String(this.client.get()
			.uri("/v3/api-docs.yaml")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody(), StandardCharsets.UTF_8);
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
					boolean shown = value.has("example") || value.has("$ref") || value.path("items").has("$ref");
					softly.assertThat(shown).as(schema.getKey() + "." + property.getKey() + " example").isTrue();
					softly.assertThat(value.has("description") || value.has("$ref") || value.path("items").has("$ref"))
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

	private JsonNode document() {
		return Json.MAPPER.readTree(this.client.get()
			.uri("/v3/api-docs")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody());
	}

}

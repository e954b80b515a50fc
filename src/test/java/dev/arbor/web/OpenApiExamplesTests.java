package dev.arbor.web;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.arbor.events.HookAnswer;
import dev.arbor.session.Json;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every operation of the OpenAPI document tried as Swagger UI's "Try it out" sends it: parameters filled with their
 * examples (or defaults), the body's first example (or one built from the schema's), no {@code If-Match}. The
 * import example comes first and creates the session the other examples name; the deletes come last.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(ScriptedHook.Registered.class)
class OpenApiExamplesTests {

	private static final String IMPORT = "post /sessions/import";

	private static final String NAVIGATE = "post /sessions/{sessionId}/navigate";

	private static final String ABORT = "delete /sessions/{sessionId}/navigations/{requestId}";

	/** In this order, after everything else: the session itself goes last. */
	private static final List<String> LAST = List.of("delete /sessions/{sessionId}/labels/{entryId}", ABORT,
			"delete /sessions/{sessionId}");

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@LocalServerPort
	int port;

	@Autowired
	ScriptedHook hook;

	@Test
	void everyOperationsExampleShouldSucceedAsSwaggerUiSendsIt() throws Exception {
		ApiDocument document = ApiDocument.fetch(this.port);
		List<ApiDocument.Operation> operations = new ArrayList<>(document.operations());
		operations.sort(Comparator.comparingInt(OpenApiExamplesTests::rank));
		assertThat(operations.get(0).name()).isEqualTo(IMPORT);
		SoftAssertions softly = new SoftAssertions();
		for (ApiDocument.Operation operation : operations) {
			Answer answer;
			if (operation.name().equals(ABORT)) {
				answer = whileANavigationWaits(document, operations, operation);
			}
			else {
				answer = execute(document, operation);
			}
			softly.assertThat(successes(operation)).as(operation.name() + " answered " + answer).contains(answer.status());
		}
		softly.assertAll();
	}

	/** The abort example needs a navigation in flight: the navigate example's, held by a hook. */
	private Answer whileANavigationWaits(ApiDocument document, List<ApiDocument.Operation> operations,
			ApiDocument.Operation abort) throws Exception {
		ApiDocument.Operation navigate = operations.stream()
			.filter(operation -> operation.name().equals(NAVIGATE))
			.findFirst()
			.orElseThrow();
		CountDownLatch asked = new CountDownLatch(1);
		CountDownLatch answer = new CountDownLatch(1);
		this.hook.onTree = preparation -> {
			asked.countDown();
			try {
				answer.await(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return HookAnswer.NONE;
		};
		try {
			CompletableFuture<Answer> navigation = CompletableFuture.supplyAsync(() -> execute(document, navigate));
			assertThat(asked.await(20, TimeUnit.SECONDS)).as("the navigation asks the hook").isTrue();
			Answer aborted = execute(document, abort);
			answer.countDown();
			assertThat(navigation.get(20, TimeUnit.SECONDS).body()).contains("\"aborted\":true");
			return aborted;
		}
		finally {
			answer.countDown();
			this.hook.reset();
		}
	}

	/** The import first, the deletes last, everything else in document order between them. */
	private static int rank(ApiDocument.Operation operation) {
		if (operation.name().equals(IMPORT)) {
			return -1;
		}
		return LAST.contains(operation.name()) ? 1 + LAST.indexOf(operation.name()) : 0;
	}

	private static List<Integer> successes(ApiDocument.Operation operation) {
		List<Integer> statuses = new ArrayList<>();
		for (Map.Entry<String, JsonNode> response : operation.node().get("responses").properties()) {
			if (response.getKey().startsWith("2")) {
				statuses.add(Integer.parseInt(response.getKey()));
			}
		}
		return statuses;
	}

	private Answer execute(ApiDocument document, ApiDocument.Operation operation) {
		String path = operation.path();
		StringBuilder query = new StringBuilder();
		HttpRequest.Builder request = HttpRequest.newBuilder().timeout(Duration.ofMinutes(1));
		for (JsonNode parameter : operation.node().path("parameters")) {
			JsonNode value = parameter.has("example") ? parameter.get("example")
					: parameter.path("schema").has("default") ? parameter.path("schema").get("default") : null;
			if (value == null) {
				continue;
			}
			String name = parameter.get("name").asString();
			String text = value.asString();
			switch (parameter.get("in").asString()) {
				case "path" -> path = path.replace("{" + name + "}", encode(text));
				case "query" -> query.append(query.isEmpty() ? "?" : "&").append(encode(name)).append('=').append(encode(text));
				default -> request.header(name, text);
			}
		}
		String accept = responseType(operation);
		if (accept != null) {
			request.header("Accept", accept);
		}
		Map.Entry<String, JsonNode> body = operation.node().path("requestBody").path("content").properties()
			.stream()
			.findFirst()
			.orElse(null);
		if (body != null) {
			JsonNode example = bodyExample(document, body.getValue());
			request.header("Content-Type", body.getKey())
				.method(operation.method().toUpperCase(), HttpRequest.BodyPublishers
					.ofString(example.isString() ? example.asString() : Json.MAPPER.writeValueAsString(example)));
		}
		else {
			request.method(operation.method().toUpperCase(), HttpRequest.BodyPublishers.noBody());
		}
		request.uri(URI.create("http://localhost:" + this.port + path + query));
		return send(request.build(), "text/event-stream".equals(accept));
	}

	private static Answer send(HttpRequest request, boolean stream) {
		try {
			if (stream) {
				// The stream stays open: its status and first bytes are the answer.
				HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
				try (InputStream events = response.body()) {
					return new Answer(response.statusCode(), new String(events.readNBytes(5), StandardCharsets.UTF_8));
				}
			}
			HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
			return new Answer(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** The media type of the first success response, which Swagger UI asks for. */
	private static String responseType(ApiDocument.Operation operation) {
		for (Map.Entry<String, JsonNode> response : operation.node().get("responses").properties()) {
			if (response.getKey().startsWith("2") && response.getValue().has("content")) {
				return response.getValue().get("content").properties().iterator().next().getKey();
			}
		}
		return null;
	}

	/** The body Swagger UI fills in: the media type's example, its first named one, or one built from the schema. */
	private static JsonNode bodyExample(ApiDocument document, JsonNode media) {
		if (media.has("example")) {
			return media.get("example");
		}
		if (media.has("examples")) {
			return document.dereference(media.get("examples").iterator().next()).get("value");
		}
		return sample(document, media.get("schema"));
	}

	private static JsonNode sample(ApiDocument document, JsonNode reference) {
		JsonNode schema = document.dereference(reference);
		if (schema.has("example")) {
			return schema.get("example");
		}
		if (schema.has("anyOf") || schema.has("oneOf")) {
			return sample(document, schema.has("anyOf") ? schema.get("anyOf").get(0) : schema.get("oneOf").get(0));
		}
		if (schema.has("properties")) {
			ObjectNode object = JsonNodeFactory.instance.objectNode();
			for (Map.Entry<String, JsonNode> property : schema.get("properties").properties()) {
				object.set(property.getKey(), sample(document, property.getValue()));
			}
			return object;
		}
		if (schema.has("default")) {
			return schema.get("default");
		}
		return JsonNodeFactory.instance.stringNode("string");
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
	}

	/**
	 * What an operation answered.
	 *
	 * @param status the HTTP status
	 * @param body the body, or the first bytes of a stream
	 */
	record Answer(int status, String body) {
	}

}

package dev.arbor.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.arbor.session.Json;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document of a running Arbor, and ways through it. Fetched with a generous timeout: springdoc builds
 * the document on the first request, which takes many seconds on a busy machine.
 */
final class ApiDocument {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	private final JsonNode root;

	private ApiDocument(JsonNode root) {
		this.root = root;
	}

	static ApiDocument fetch(int port) {
		return new ApiDocument(Json.MAPPER.readTree(text(port, "/v3/api-docs")));
	}

	/** The document as served at this path ({@code /v3/api-docs.yaml} for the YAML). */
	static String text(int port, String path) {
		try {
			HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
				.timeout(Duration.ofMinutes(2))
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(path).isEqualTo(200);
			return response.body();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	JsonNode root() {
		return this.root;
	}

	/** Every operation, as {@code method path}, in document order. */
	List<Operation> operations() {
		List<Operation> operations = new ArrayList<>();
		for (Map.Entry<String, JsonNode> path : this.root.get("paths").properties()) {
			for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
				operations.add(new Operation(operation.getKey(), path.getKey(), operation.getValue()));
			}
		}
		return operations;
	}

	/** What a local reference ({@code #/components/...}) points to. */
	JsonNode resolve(String ref) {
		return this.root.at(ref.substring(1));
	}

	/** The node, or what it refers to when it is a {@code $ref}. */
	JsonNode dereference(JsonNode node) {
		return node.has("$ref") ? dereference(resolve(node.get("$ref").asString())) : node;
	}

	/**
	 * One operation.
	 *
	 * @param method the HTTP method, lower case
	 * @param path the path template
	 * @param node the operation object
	 */
	record Operation(String method, String path, JsonNode node) {

		String name() {
			return this.method + " " + this.path;
		}

	}

}

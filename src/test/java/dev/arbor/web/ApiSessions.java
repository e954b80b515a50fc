package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.arbor.session.Json;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Sessions made over HTTP for API tests, and the files behind them. */
final class ApiSessions {

	private ApiSessions() {
	}

	/** A new empty session's id. */
	static String create(RestTestClient client) {
		return body(client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"cwd\":\"/work\",\"title\":\"test\"}")
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString();
	}

	/** Creates a session of this working directory, without a title, and returns its id. */
	static String create(RestTestClient client, String cwd) {
		return body(client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("cwd", cwd))
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString();
	}

	/** Appends one entry (JSON text) and returns the stored entry. */
	static JsonNode append(RestTestClient client, String sessionId, String entry) {
		return body(client.post()
			.uri("/sessions/{sessionId}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(entry)
			.exchange()
			.expectStatus()
			.isCreated());
	}

	/** Appends a user message and returns its id. */
	static String appendUser(RestTestClient client, String sessionId, String text) {
		return append(client, sessionId,
				"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":" + Json.MAPPER.writeValueAsString(text) + "}}")
			.get("id")
			.asString();
	}

	/** Appends user messages {@code "<prefix> 0"}, {@code "<prefix> 1"}, … in one batch; their ids in order. */
	static List<String> appendUsers(RestTestClient client, String sessionId, String prefix, int count) {
		StringBuilder batch = new StringBuilder("[");
		for (int i = 0; i < count; i++) {
			batch.append((i > 0) ? "," : "")
				.append("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":")
				.append(Json.MAPPER.writeValueAsString(prefix + " " + i))
				.append("}}");
		}
		JsonNode entries = append(client, sessionId, batch.append(']').toString());
		List<String> ids = new ArrayList<>();
		entries.forEach(entry -> ids.add(entry.get("id").asString()));
		return ids;
	}

	/** Moves the leaf ({@code PUT …/leaf}) without {@code If-Match}. */
	static void moveLeaf(RestTestClient client, String sessionId, String entryId) {
		client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", entryId))
			.exchange()
			.expectStatus()
			.isOk();
	}

	/** Appends an assistant message and returns its id. */
	static String appendAssistant(RestTestClient client, String sessionId, String text) {
		return append(client, sessionId, "{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":"
				+ Json.MAPPER.writeValueAsString(text) + "}],\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\"}}")
			.get("id")
			.asString();
	}

	/** Imports a session file unless a session of its id is there already: for tests that only read it. */
	static void importOnce(RestTestClient client, String sessionId, byte[] file) {
		boolean there = client.get()
			.uri("/sessions/{id}", sessionId)
			.exchange()
			.returnResult(String.class)
			.getStatus()
			.is2xxSuccessful();
		if (!there) {
			client.post()
				.uri("/sessions/import")
				.contentType(MediaType.parseMediaType("application/x-ndjson"))
				.body(file)
				.exchange()
				.expectStatus()
				.isCreated();
		}
	}

	/** {@code POST /sessions/{id}/navigate} with the body; the outcome of a 200. */
	static JsonNode navigate(RestTestClient client, String sessionId, java.util.Map<String, Object> body) {
		return body(client.post()
			.uri("/sessions/{id}/navigate", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isOk());
	}

	/** The session's leaf, {@code null} for none. */
	static String leaf(RestTestClient client, String sessionId) {
		JsonNode leaf = body(client.get().uri("/sessions/{id}/leaf", sessionId).exchange());
		return leaf.get("leafId").isNull() ? null : leaf.get("leafId").asString();
	}

	/** Where the problem types live ({@code ProblemType}). */
	static final String PROBLEMS = "https://arbor.dev/problems/";

	/** A problem document of this status and type with a detail; returned for further checks. */
	static JsonNode problem(RestTestClient.ResponseSpec response, HttpStatus status, String type) {
		JsonNode problem = body(response.expectStatus()
			.isEqualTo(status)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON));
		assertThat(problem.get("type").asString()).isEqualTo(PROBLEMS + type);
		assertThat(problem.get("status").asInt()).isEqualTo(status.value());
		assertThat(problem.get("detail").asString()).isNotBlank();
		return problem;
	}

	/** The response body as JSON. */
	static JsonNode body(RestTestClient.ResponseSpec response) {
		return json(response.expectBody().returnResult().getResponseBody());
	}

	static JsonNode json(byte[] body) {
		return Json.MAPPER.readTree(body);
	}

	/** The session file of a session: {@code <timestamp>_<id>.jsonl} under the storage directory. */
	static Path file(Path storage, String sessionId) {
		// not a walk of its own: the search index's files under .arbor/ come and go meanwhile
		return FileTreeSnapshot.paths(storage)
			.stream()
			.filter(file -> file.getFileName().toString().endsWith("_" + sessionId + ".jsonl"))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No file for session " + sessionId));
	}

	/** Every file under the storage directory with its bytes, to show that a request changed nothing. */
	static Map<String, String> files(Path storage) {
		Map<String, String> contents = new TreeMap<>();
		FileTreeSnapshot.paths(storage)
			.stream()
			.filter(Files::isRegularFile)
			.forEach(file -> contents.put(storage.relativize(file).toString(), read(file)));
		return contents;
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

package dev.arbor.explorer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the browser tests do to Arbor behind the page's back, over plain HTTP, as another client (the agent, another
 * tab) would: import, create, append, read the leaf.
 */
final class ExplorerApi {

	private final HttpClient http = HttpClient.newHttpClient();

	private final String base;

	private final @Nullable String key;

	ExplorerApi(int port) {
		this(port, null);
	}

	ExplorerApi(int port, @Nullable String key) {
		this.base = "http://localhost:" + port;
		this.key = key;
	}

	/** Imports a session file under a new id, so that each test has a copy of its own. */
	JsonNode importCopy(byte[] file) {
		return send("POST", "/sessions/import?newId=true", "application/x-ndjson", file, 201);
	}

	String create(@Nullable String title, String cwd) {
		ObjectNode body = Json.newObject().put("title", title).put("cwd", cwd);
		return send("POST", "/sessions", "application/json", Json.toBytes(body), 201).get("id").asString();
	}

	/** A session whose header names {@code parentSession} as the one it was forked from. */
	String createForkedFrom(String title, String parentSession) {
		ObjectNode body = Json.newObject().put("title", title).put("parentSession", parentSession);
		return send("POST", "/sessions", "application/json", Json.toBytes(body), 201).get("id").asString();
	}

	/** Forks the session (every entry), as the page's Fork button does; answers the new session's id. */
	String fork(String sessionId) {
		return send("POST", "/sessions/" + sessionId + "/fork", null, null, 201).get("id").asString();
	}

	/** Names the session as pi's {@code /name} does. */
	void name(String sessionId, String name) {
		ObjectNode body = Json.newObject().put("name", name);
		send("PUT", "/sessions/" + sessionId + "/name", "application/json", Json.toBytes(body), 200);
	}

	/** Appends user messages in order, one request each; answers their ids. */
	List<String> appendUsers(String sessionId, String... texts) {
		return Arrays.stream(texts).map((text) -> append(sessionId, "user", text)).toList();
	}

	/** Appends user messages in order in one request (all or nothing); answers their ids. */
	List<String> appendUsersAtOnce(String sessionId, List<String> texts) {
		ArrayNode entries = Json.MAPPER.createArrayNode();
		for (String text : texts) {
			ObjectNode entry = entries.addObject().put("type", "message");
			entry.putObject("message").put("role", "user").putArray("content").addObject().put("type", "text").put("text", text);
		}
		JsonNode stored = send("POST", "/sessions/" + sessionId + "/entries", "application/json", Json.toBytes(entries), 201);
		List<String> ids = new ArrayList<>();
		stored.forEach((entry) -> ids.add(entry.get("id").asString()));
		return ids;
	}

	String append(String sessionId, String role, String text) {
		ObjectNode entry = Json.newObject().put("type", "message");
		ObjectNode message = entry.putObject("message").put("role", role);
		message.putArray("content").addObject().put("type", "text").put("text", text);
		if ("assistant".equals(role)) {
			message.put("provider", "anthropic").put("model", "claude-sonnet-4-5");
		}
		return send("POST", "/sessions/" + sessionId + "/entries", "application/json", Json.toBytes(entry), 201)
			.get("id")
			.asString();
	}

	@Nullable String leaf(String sessionId) {
		JsonNode leaf = get("/sessions/" + sessionId + "/leaf").get("leafId");
		return leaf.isNull() ? null : leaf.asString();
	}

	JsonNode get(String path) {
		return send("GET", path, null, null, 200);
	}

	void delete(String sessionId) {
		send("DELETE", "/sessions/" + sessionId, null, null, 204);
	}

	/** Whether the session is there (200) or not (404). */
	boolean exists(String sessionId) {
		return status("/sessions/" + sessionId) == 200;
	}

	private int status(String path) {
		return exchange(HttpRequest.newBuilder(URI.create(this.base + path)), BodyHandlers.discarding()).statusCode();
	}

	private JsonNode send(String method, String path, @Nullable String contentType, byte @Nullable [] body,
			int expected) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
			.method(method, (body != null) ? BodyPublishers.ofByteArray(body) : BodyPublishers.noBody());
		if (contentType != null) {
			request.header("Content-Type", contentType);
		}
		HttpResponse<byte[]> response = exchange(request, BodyHandlers.ofByteArray());
		assertThat(response.statusCode()).as("%s %s: %s", method, path, new String(response.body()))
			.isEqualTo(expected);
		return (response.body().length > 0) ? Json.MAPPER.readTree(response.body()) : Json.newObject();
	}

	/** Sends the request, with the key when there is one. */
	private <T> HttpResponse<T> exchange(HttpRequest.Builder request, BodyHandler<T> handler) {
		if (this.key != null) {
			request.header("Authorization", "Bearer " + this.key);
		}
		try {
			return this.http.send(request.build(), handler);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}

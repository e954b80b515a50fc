package dev.arbor.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import dev.arbor.ArborApplication;
import dev.arbor.session.Json;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole Arbor application that a test starts and stops itself, to start another on the same storage: what a
 * restart keeps. Not a Spring test context, which would be cached and never stop.
 *
 * @param context the running application
 * @param port where it listens
 */
public record RestartedApp(ConfigurableApplicationContext context, int port) implements AutoCloseable {

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	/** Starts Arbor on a free port with the given {@code name=value} properties. */
	public static RestartedApp start(String... properties) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ArborApplication.class)
			.properties("server.port=0", "logging.level.root=WARN")
			.properties(properties)
			.run();
		return new RestartedApp(context, ((WebServerApplicationContext) context).getWebServer().getPort());
	}

	/** Posts a JSON body and expects {@code 201 Created}; returns the answer. */
	JsonNode post(String path, String body) throws Exception {
		HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
		return Json.MAPPER.readTree(response.body());
	}

	/** Appends a user message; returns the stored entry. */
	JsonNode appendUser(String sessionId, String text) throws Exception {
		return post("/sessions/" + sessionId + "/entries",
				"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}");
	}

	/**
	 * A client back with a {@code Last-Event-ID} that the replay no longer reaches, on the session's stream and on all
	 * sessions': a {@code resync} first, numbered so that a reconnect resumes there, then the next change, and a
	 * reconnect from that change served from the replay. Appends an entry per stream.
	 */
	void assertResyncThenCarriesOn(String sessionId, long lastSeen) throws Exception {
		for (String path : new String[] { "/sessions/" + sessionId + "/events", "/events" }) {
			try (SseClient events = SseClient.open(port(), path, lastSeen)) {
				SseClient.Event resync = events.next();
				assertThat(resync.type()).isEqualTo("resync");
				assertThat(resync.data().get("lastEventId").asLong()).isEqualTo(lastSeen);
				assertThat(resync.data().get("reason").asString()).isEqualTo("replay-unavailable");
				assertThat(resync.id()).as("a reconnect from the resync resumes here").isGreaterThan(lastSeen);
				String third = appendUser(sessionId, "three").get("id").asString();
				SseClient.Event appended = events.until("entry_appended").get(0);
				assertThat(appended.data().get("entry").get("id").asString()).isEqualTo(third);
				assertThat(appended.id()).isGreaterThan(resync.id());
				assertThat(events.until("leaf_changed")).hasSize(1);
				try (SseClient resumed = SseClient.open(port(), path, appended.id())) {
					assertThat(resumed.next().type()).as("served from the replay now").isEqualTo("leaf_changed");
					assertThat(resumed.drain(Duration.ofMillis(200))).isEmpty();
				}
			}
		}
	}

	@Override
	public void close() {
		this.context.close();
	}

}

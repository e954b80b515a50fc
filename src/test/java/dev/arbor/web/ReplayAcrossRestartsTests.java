package dev.arbor.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import dev.arbor.ArborApplication;
import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that reconnects with a {@code Last-Event-ID} that the replay cannot serve (the events were kept by a
 * process that has since stopped, or dropped from a full buffer) is told so with a {@code resync} event, and then
 * gets every later event: it never silently misses what happened meanwhile.
 */
class ReplayAcrossRestartsTests {

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	@TempDir
	Path storage;

	@Test
	void aReconnectAfterARestartShouldFirstBeToldToRefetch() throws Exception {
		String sessionId;
		long lastSeen;
		try (ConfigurableApplicationContext first = start()) {
			int port = port(first);
			sessionId = post(port, "/sessions", "{\"cwd\":\"/work\"}").get("id").asString();
			try (SseClient events = SseClient.open(port, "/sessions/" + sessionId + "/events", null)) {
				post(port, "/sessions/" + sessionId + "/entries", "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"one\"}}");
				lastSeen = events.until("leaf_changed").get(1).id();
			}
			// missed: written while the client was away, just before the restart
			post(port, "/sessions/" + sessionId + "/entries", "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"two\"}}");
		}
		try (ConfigurableApplicationContext second = start()) {
			int port = port(second);
			for (String path : new String[] { "/sessions/" + sessionId + "/events", "/events" }) {
				try (SseClient events = SseClient.open(port, path, lastSeen)) {
					SseClient.Event resync = events.next();
					assertThat(resync.type()).isEqualTo("resync");
					assertThat(resync.data().get("lastEventId").asLong()).isEqualTo(lastSeen);
					assertThat(resync.data().get("reason").asString()).isEqualTo("replay-unavailable");
					assertThat(resync.id()).as("a reconnect from the resync resumes here").isGreaterThan(lastSeen);
					String third = post(port, "/sessions/" + sessionId + "/entries",
							"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"three\"}}").get("id").asString();
					SseClient.Event appended = events.until("entry_appended").get(0);
					assertThat(appended.data().get("entry").get("id").asString()).isEqualTo(third);
					assertThat(appended.id()).isGreaterThan(resync.id());
					assertThat(events.until("leaf_changed")).hasSize(1);
					try (SseClient resumed = SseClient.open(port, path, appended.id())) {
						assertThat(resumed.next().type()).as("served from the replay now").isEqualTo("leaf_changed");
						assertThat(resumed.drain(Duration.ofMillis(200))).isEmpty();
					}
				}
			}
		}
	}

	private ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(ArborApplication.class)
			.properties("server.port=0", "arbor.storage.dir=" + this.storage, "logging.level.root=WARN")
			.run();
	}

	private static int port(ConfigurableApplicationContext app) {
		return ((WebServerApplicationContext) app).getWebServer().getPort();
	}

	private static JsonNode post(int port, String path, String body) throws Exception {
		HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
		return Json.MAPPER.readTree(response.body());
	}

}

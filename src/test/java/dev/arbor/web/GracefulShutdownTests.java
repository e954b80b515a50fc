package dev.arbor.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.arbor.ArborApplication;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.file.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stopping Arbor while clients append and watch: every acknowledged entry is on disk afterwards, the file is whole,
 * and open event streams end cleanly.
 */
class GracefulShutdownTests {

	private static final int WRITERS = 8;

	@TempDir
	Path storage;

	@Test
	void shutdownDuringAStreamOfAppendsShouldLoseNoAcknowledgedEntry() throws Exception {
		ConfigurableApplicationContext app = new SpringApplicationBuilder(ArborApplication.class)
			.properties("server.port=0", "arbor.storage.dir=" + this.storage, "logging.level.root=WARN")
			.run();
		int port = ((WebServerApplicationContext) app).getWebServer().getPort();
		HttpClient http = HttpClient.newHttpClient();
		String sessionId = Json.MAPPER.readTree(http.send(
				HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sessions"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"cwd\":\"/work\"}"))
					.build(),
				HttpResponse.BodyHandlers.ofString()).body()).get("id").asString();
		Set<String> acknowledged = ConcurrentHashMap.newKeySet();
		ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
		List<Future<?>> running = new ArrayList<>();
		try (SseClient events = SseClient.open(port, "/sessions/" + sessionId + "/events", null)) {
			for (int w = 0; w < WRITERS; w++) {
				int writer = w;
				running.add(writers.submit(() -> appendUntilRefused(port, sessionId, writer, acknowledged)));
			}
			while (acknowledged.size() < 200) {
				TimeUnit.MILLISECONDS.sleep(5);
			}
			app.close(); // while the writers keep appending
			for (Future<?> writer : running) {
				writer.get(60, TimeUnit.SECONDS);
			}
			assertThat(events.ended(Duration.ofSeconds(10))).as("the event stream ended with the application")
				.isTrue();
		}
		finally {
			writers.shutdownNow();
			app.close();
		}
		try (FileSessionStore store = new FileSessionStore(this.storage, FsyncPolicy.ALWAYS, Long.MAX_VALUE,
				Clock.systemUTC())) {
			List<String> stored = store.read(sessionId, tree -> tree.getEntries().stream().map(EntryLine::id).toList());
			assertThat(stored).containsAll(acknowledged);
			assertThat(store.get(sessionId).malformedLines()).isZero();
			assertThat(stored).doesNotHaveDuplicates();
		}
	}

	/** Appends until the server stops answering 201: it refuses, resets or is gone. */
	private static void appendUntilRefused(int port, String sessionId, int writer, Set<String> acknowledged) {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		for (int i = 0;; i++) {
			String body = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"writer " + writer + " #" + i
					+ "\"}}";
			try {
				HttpResponse<String> response = http.send(
						HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sessions/" + sessionId + "/entries"))
							.header("Content-Type", "application/json")
							.timeout(Duration.ofSeconds(30))
							.POST(HttpRequest.BodyPublishers.ofString(body))
							.build(),
						HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() != 201) {
					return;
				}
				acknowledged.add(Json.MAPPER.readTree(response.body()).get("id").asString());
			}
			catch (Exception ex) {
				return;
			}
		}
	}

}

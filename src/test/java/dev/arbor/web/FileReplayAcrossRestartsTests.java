package dev.arbor.web;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On the file store, a client that reconnects with a {@code Last-Event-ID} that the replay cannot serve (the events
 * were kept by a process that has since stopped, or dropped from a full buffer) is told so with a {@code resync}
 * event, and then gets every later event: it never silently misses what happened meanwhile. The PostgreSQL store
 * keeps its events across restarts and replays them instead ({@link PostgresReplayAcrossRestartsTests}).
 */
class FileReplayAcrossRestartsTests {

	@TempDir
	Path storage;

	@Test
	void aReconnectAfterARestartShouldFirstBeToldToRefetch() throws Exception {
		String sessionId;
		long lastSeen;
		try (RestartedApp first = start()) {
			sessionId = first.post("/sessions", "{\"cwd\":\"/work\"}").get("id").asString();
			try (SseClient events = SseClient.open(first.port(), "/sessions/" + sessionId + "/events", null)) {
				first.appendUser(sessionId, "one");
				lastSeen = events.until("leaf_changed").get(1).id();
			}
			// missed: written while the client was away, just before the restart
			first.appendUser(sessionId, "two");
		}
		try (RestartedApp second = start()) {
			for (String path : new String[] { "/sessions/" + sessionId + "/events", "/events" }) {
				try (SseClient events = SseClient.open(second.port(), path, lastSeen)) {
					SseClient.Event resync = events.next();
					assertThat(resync.type()).isEqualTo("resync");
					assertThat(resync.data().get("lastEventId").asLong()).isEqualTo(lastSeen);
					assertThat(resync.data().get("reason").asString()).isEqualTo("replay-unavailable");
					assertThat(resync.id()).as("a reconnect from the resync resumes here").isGreaterThan(lastSeen);
					String third = second.appendUser(sessionId, "three").get("id").asString();
					SseClient.Event appended = events.until("entry_appended").get(0);
					assertThat(appended.data().get("entry").get("id").asString()).isEqualTo(third);
					assertThat(appended.id()).isGreaterThan(resync.id());
					assertThat(events.until("leaf_changed")).hasSize(1);
					try (SseClient resumed = SseClient.open(second.port(), path, appended.id())) {
						assertThat(resumed.next().type()).as("served from the replay now").isEqualTo("leaf_changed");
						assertThat(resumed.drain(Duration.ofMillis(200))).isEmpty();
					}
				}
			}
		}
	}

	private RestartedApp start() {
		return RestartedApp.start("arbor.storage.dir=" + this.storage);
	}

}

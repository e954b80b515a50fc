package dev.arbor.web;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
			second.assertResyncThenCarriesOn(sessionId, lastSeen);
		}
	}

	private RestartedApp start() {
		return RestartedApp.start("arbor.storage.dir=" + this.storage);
	}

}

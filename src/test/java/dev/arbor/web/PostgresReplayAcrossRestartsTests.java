package dev.arbor.web;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.storage.postgres.RequiresPostgres;
import dev.arbor.storage.postgres.TestDatabases;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On the PostgreSQL store, events are rows kept for {@code arbor.events.retention}, so a client that reconnects with
 * a {@code Last-Event-ID} after a restart gets what it missed, replayed from the database: the opposite of the file
 * store, which tells it to refetch ({@link FileReplayAcrossRestartsTests}). Only a {@code Last-Event-ID} older than
 * the retention gets that {@code resync}.
 */
@RequiresPostgres
class PostgresReplayAcrossRestartsTests {

	/** How long a test waits for the database to reach a state, before it fails. */
	private static final Duration PATIENCE = Duration.ofSeconds(30);

	/** A database for each test: the events of one never meet the retention of another. */
	private final TestDatabases.Database database = TestDatabases.create();

	@Test
	void aReconnectAfterARestartShouldReplayExactlyWhatItMissed() throws Exception {
		String sessionId;
		long lastSeen;
		List<SseClient.Event> missed;
		try (RestartedApp first = start()) {
			sessionId = first.post("/sessions", "{\"cwd\":\"/work\"}").get("id").asString();
			try (SseClient session = SseClient.open(first.port(), "/sessions/" + sessionId + "/events", null);
					SseClient all = SseClient.open(first.port(), "/events", null)) {
				first.appendUser(sessionId, "one");
				lastSeen = session.until("leaf_changed").get(1).id();
				assertThat(all.until("leaf_changed").get(1).id()).isEqualTo(lastSeen);
				// missed by a client that left after "one": written just before the restart
				first.appendUser(sessionId, "two");
				missed = session.until("leaf_changed");
				assertThat(all.until("leaf_changed")).isEqualTo(missed);
			}
		}
		try (RestartedApp second = start();
				SseClient session = SseClient.open(second.port(), "/sessions/" + sessionId + "/events", lastSeen);
				SseClient all = SseClient.open(second.port(), "/events", lastSeen)) {
			assertThat(session.until("leaf_changed")).as("replayed as first sent, ids and all").isEqualTo(missed);
			assertThat(all.until("leaf_changed")).as("replayed as first sent, ids and all").isEqualTo(missed);
			String third = second.appendUser(sessionId, "three").get("id").asString();
			for (SseClient stream : List.of(session, all)) {
				List<SseClient.Event> live = stream.until("leaf_changed");
				assertThat(live).extracting(SseClient.Event::type).containsExactly("entry_appended", "leaf_changed");
				assertThat(live.get(0).data().get("entry").get("id").asString()).isEqualTo(third);
				assertThat(live.get(0).id()).isGreaterThan(missed.get(1).id());
				assertThat(stream.drain(Duration.ofMillis(200))).as("nothing twice").isEmpty();
			}
		}
	}

	@Test
	void aReconnectFromBeforeTheRetentionShouldFirstBeToldToRefetch() throws Exception {
		String sessionId;
		long lastSeen;
		try (RestartedApp first = start()) {
			sessionId = first.post("/sessions", "{\"cwd\":\"/work\"}").get("id").asString();
			try (SseClient events = SseClient.open(first.port(), "/sessions/" + sessionId + "/events", null)) {
				first.appendUser(sessionId, "one");
				lastSeen = events.until("leaf_changed").get(1).id();
			}
			first.appendUser(sessionId, "two");
		}
		// The bus removes what is older than the retention when it starts (then once a minute): age the events first.
		await("every event older than a second", "SELECT bool_and(created_at < now() - interval '1 second') FROM arbor_event");
		try (RestartedApp second = start("arbor.events.retention=1s")) {
			await("the events removed", "SELECT tx > 0 FROM arbor_event_horizon");
			second.assertResyncThenCarriesOn(sessionId, lastSeen);
		}
	}

	/** Arbor on this test's database, as {@code PostgresProperties.register} points a test context at one. */
	private RestartedApp start(String... more) {
		List<String> properties = new ArrayList<>(List.of("arbor.storage.type=postgres",
				"spring.datasource.url=" + this.database.url(), "spring.datasource.username=" + this.database.user(),
				"spring.datasource.password=" + this.database.password()));
		properties.addAll(List.of(more));
		return RestartedApp.start(properties.toArray(String[]::new));
	}

	/** Waits until the query's one boolean is true: the database's clock and state, not this JVM's. */
	private void await(String what, String query) throws SQLException, InterruptedException {
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		try (Connection connection = DriverManager.getConnection(this.database.url(), this.database.user(),
				this.database.password()); PreparedStatement statement = connection.prepareStatement(query)) {
			while (true) {
				try (ResultSet result = statement.executeQuery()) {
					if (result.next() && result.getBoolean(1)) {
						return;
					}
				}
				assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
				Thread.sleep(100);
			}
		}
	}

}

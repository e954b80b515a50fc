package dev.arbor.web;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Server-Sent Events streams over real HTTP, read by a real streaming client
 * (docs/API.md#events-server-sent-events). A contract: {@link FileEventStreamApiTests} and
 * {@link PostgresEventStreamApiTests} run it on each store and its event bus. Event ids are only compared (the
 * PostgreSQL bus's increase, but not one by one).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class EventStreamApiContract {

	@DynamicPropertySource
	static void heartbeat(DynamicPropertyRegistry registry) {
		registry.add("arbor.events.heartbeat", () -> "300ms");
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	@Test
	void oneNavigationShouldStreamSessionBeforeTreeThenSessionTree() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "two");
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			navigate(sessionId, u1);
			List<SseClient.Event> received = events.until("session_tree");
			assertThat(received).extracting(SseClient.Event::type)
				.containsExactly("session_before_tree", "leaf_changed", "session_tree");
			assertThat(received.get(0).data()).isEqualTo(Json.MAPPER.readTree("{\"sessionId\":\"" + sessionId
					+ "\",\"targetId\":\"" + u1 + "\",\"oldLeafId\":\"" + a1 + "\",\"commonAncestorId\":\"" + u1
					+ "\",\"entriesToSummarizeCount\":1,\"firstEntryIdToSummarize\":\"" + a1
					+ "\",\"lastEntryIdToSummarize\":\"" + a1 + "\",\"leadingEntryIdsToSummarize\":[\"" + a1
					+ "\"],\"entryIdsToSummarizeTruncated\":false,\"userWantsSummary\":false}"));
			assertThat(received.get(1).data()).isEqualTo(Json.MAPPER.readTree(
					"{\"sessionId\":\"" + sessionId + "\",\"leafId\":null,\"oldLeafId\":\"" + a1 + "\",\"origin\":\"arbor\"}"));
			assertThat(received.get(2).data()).isEqualTo(Json.MAPPER.readTree(
					"{\"sessionId\":\"" + sessionId + "\",\"newLeafId\":null,\"oldLeafId\":\"" + a1 + "\"}"));
			assertThat(received).extracting(SseClient.Event::id).isSorted().doesNotHaveDuplicates();
		}
	}

	@Test
	void appendsAndLabelsShouldStreamTheEntriesAsStored() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			JsonNode entry = ApiSessions.append(this.client, sessionId,
					"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"héllo\",\"extra\":1.50}}");
			List<SseClient.Event> appended = events.until("leaf_changed");
			assertThat(appended).extracting(SseClient.Event::type).containsExactly("entry_appended", "leaf_changed");
			assertThat(appended.get(0).data().get("sessionId").asString()).isEqualTo(sessionId);
			assertThat(appended.get(0).data().get("origin").asString()).isEqualTo("arbor");
			assertThat(appended.get(0).data().get("entry")).isEqualTo(entry);
			assertThat(appended.get(0).data().get("entry").get("message").get("extra").toString()).isEqualTo("1.50");
			JsonNode label = ApiSessions.body(this.client.put()
				.uri("/sessions/{id}/labels/{e}", sessionId, entry.get("id").asString())
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("label", "start"))
				.exchange()
				.expectStatus()
				.isOk());
			List<SseClient.Event> labelled = events.until("leaf_changed");
			assertThat(labelled).extracting(SseClient.Event::type)
				.containsExactly("entry_appended", "label_changed", "leaf_changed");
			assertThat(labelled.get(1).data()).isEqualTo(Json.MAPPER.readTree("{\"sessionId\":\"" + sessionId
					+ "\",\"targetId\":\"" + entry.get("id").asString() + "\",\"label\":\"start\",\"entryId\":\""
					+ label.get("id").asString() + "\",\"origin\":\"arbor\"}"));
		}
	}

	@Test
	void namingASessionShouldStreamTheEntryAndTheNewName() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			for (String[] named : new String[][] { { "  flaky test hunt ", "\"flaky test hunt\"" }, { "", "null" } }) {
				JsonNode entry = ApiSessions.body(this.client.put()
					.uri("/sessions/{id}/name", sessionId)
					.contentType(MediaType.APPLICATION_JSON)
					.body(Map.of("name", named[0]))
					.exchange()
					.expectStatus()
					.isOk());
				List<SseClient.Event> renamed = events.until("leaf_changed");
				assertThat(renamed).extracting(SseClient.Event::type)
					.containsExactly("entry_appended", "session_renamed", "leaf_changed");
				assertThat(renamed.get(1).data()).isEqualTo(Json.MAPPER.readTree("{\"sessionId\":\"" + sessionId
						+ "\",\"name\":" + named[1] + ",\"entryId\":\"" + entry.get("id").asString()
						+ "\",\"origin\":\"arbor\"}"));
			}
		}
	}

	@Test
	void aReconnectWithLastEventIdShouldReceiveExactlyTheEventsItMissed() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		try (SseClient witness = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			long lastSeen;
			try (SseClient reader = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
				ApiSessions.appendAssistant(this.client, sessionId, "two");
				lastSeen = reader.until("leaf_changed").get(1).id();
			}
			// missed while disconnected: an append, a label, a navigation
			String a2 = ApiSessions.appendAssistant(this.client, sessionId, "three");
			this.client.put()
				.uri("/sessions/{id}/labels/{e}", sessionId, u1)
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("label", "first"))
				.exchange()
				.expectStatus()
				.isOk();
			navigate(sessionId, a2);
			List<SseClient.Event> all = witness.until("session_tree");
			List<SseClient.Event> missed = all.stream().filter(event -> event.id() > lastSeen).toList();
			assertThat(missed).extracting(SseClient.Event::type)
				.containsExactly("entry_appended", "leaf_changed", "entry_appended", "label_changed", "leaf_changed",
						"session_before_tree", "leaf_changed", "session_tree");
			try (SseClient reconnected = SseClient.open(this.port, "/sessions/" + sessionId + "/events", lastSeen)) {
				assertThat(reconnected.until("session_tree")).isEqualTo(missed);
				assertThat(reconnected.drain(Duration.ofMillis(200))).as("nothing twice").isEmpty();
			}
		}
	}

	@Test
	void theStreamOfAllSessionsShouldSeeSessionsComeAndGo() throws Exception {
		try (SseClient all = SseClient.open(this.port, "/events", null)) {
			String sessionId = ApiSessions.create(this.client);
			SseClient.Event created = all.next();
			assertThat(created.type()).isEqualTo("session_created");
			assertThat(created.data()).isEqualTo(Json.MAPPER.readTree("{\"sessionId\":\"" + sessionId
					+ "\",\"cwd\":\"/work\",\"title\":\"test\",\"parentSession\":null,\"leafId\":null,\"entryCount\":0,"
					+ "\"origin\":\"arbor\"}"));
			try (SseClient one = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
				this.client.delete().uri("/sessions/{id}", sessionId).exchange().expectStatus().isNoContent();
				assertThat(all.next().type()).isEqualTo("session_deleted");
				SseClient.Event deleted = one.next();
				assertThat(deleted.type()).isEqualTo("session_deleted");
				assertThat(deleted.data())
					.isEqualTo(Json.MAPPER.readTree("{\"sessionId\":\"" + sessionId + "\",\"origin\":\"arbor\"}"));
				assertThat(one.ended(Duration.ofSeconds(10))).as("the session's stream ends after its deletion").isTrue();
			}
		}
	}

	@Test
	void branchingShouldStreamSessionBeforeBranchThenSessionBranch() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		String u2 = ApiSessions.appendUser(this.client, sessionId, "three");
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			JsonNode branched = ApiSessions.body(this.client.post()
				.uri("/sessions/{id}/branch", sessionId)
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("entryId", u2))
				.exchange()
				.expectStatus()
				.isCreated());
			List<SseClient.Event> received = events.until("session_branch");
			assertThat(received).extracting(SseClient.Event::type)
				.containsExactly("session_before_branch", "session_branch");
			assertThat(received.get(0).data())
				.isEqualTo(Json.MAPPER.readTree("{\"sessionId\":\"" + sessionId + "\",\"entryId\":\"" + u2 + "\"}"));
			assertThat(received.get(1).data().get("newSessionId").asString())
				.isEqualTo(branched.get("session").get("id").asString());
		}
	}

	/** This application has neither a summary model nor a hook. */
	@Test
	void summarizingWithNoModelAndNoHookShouldBeA422ThatStreamsAndWritesNothing() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		Map<String, String> before = stored().snapshot();
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			ApiSessions.problem(this.client.post()
				.uri("/sessions/{id}/navigate", sessionId)
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("targetId", u1, "summarize", true))
				.exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "no-summary-model");
			assertThat(stored().snapshot()).isEqualTo(before);
			// Not a quiet spell, which a bus that delivers from the database could outlast: the next change's events
			// come next, so anything the navigation had published would arrive before them.
			ApiSessions.appendUser(this.client, sessionId, "three");
			assertThat(events.until("leaf_changed")).extracting(SseClient.Event::type)
				.containsExactly("entry_appended", "leaf_changed");
		}
	}

	@Test
	void idleStreamsShouldGetHeartbeatComments() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			assertThat(events.nextComment(Duration.ofSeconds(10))).isEqualTo("heartbeat");
		}
	}

	@Test
	void anUnknownSessionShouldBeA404ProblemDocument() {
		ApiSessions.problem(this.client.get()
			.uri("/sessions/{id}/events", "no-such-session")
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange(), HttpStatus.NOT_FOUND, "session-not-found");
	}

	@Test
	void aLastEventIdThatIsNoNumberShouldBeA400() {
		JsonNode problem = ApiSessions.problem(this.client.get()
			.uri("/events")
			.header("Last-Event-ID", "yesterday")
			.exchange(), HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(problem.get("parameter").asString()).isEqualTo("Last-Event-ID");
	}

	private void navigate(String sessionId, String targetId) {
		this.client.post()
			.uri("/sessions/{id}/navigate?context=false", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", targetId))
			.exchange()
			.expectStatus()
			.isOk();
	}

}

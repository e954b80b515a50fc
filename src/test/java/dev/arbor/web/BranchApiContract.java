package dev.arbor.web;

import java.util.List;
import java.util.Map;

import dev.arbor.events.HookAnswer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /branch}, {@code /fork} and {@code /branched-sessions} over HTTP
 * (docs/SESSION-FORMAT.md#branching-and-forking). A contract: {@link FileBranchApiTests} and
 * {@link PostgresBranchApiTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Import(ScriptedHook.Registered.class)
abstract class BranchApiContract {

	@Autowired
	RestTestClient client;

	@Autowired
	ScriptedHook hook;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	@BeforeEach
	void reset() {
		this.hook.reset();
	}

	@Test
	void branchingFromAMiddleUserMessageShouldCopyThePathToItsParentWithLabels() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "two");
		label(sessionId, u1, "start");
		label(sessionId, a1, "answer");
		String u2 = ApiSessions.appendUser(this.client, sessionId, "three");
		ApiSessions.appendAssistant(this.client, sessionId, "four");
		byte[] oldBytes = stored().sessionBytes(sessionId);

		JsonNode branched = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branch", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", u2))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.exists(HttpHeaders.LOCATION));
		assertThat(branched.get("cancelled").asBoolean()).isFalse();
		assertThat(branched.get("selectedText").asString()).isEqualTo("three");
		assertThat(branched.get("previousSessionId").asString()).isEqualTo(sessionId);
		JsonNode session = branched.get("session");
		String newId = session.get("id").asString();
		assertThat(newId).isNotEqualTo(sessionId);
		assertThat(session.get("parentSession").asString()).isEqualTo(sessionId);
		assertThat(session.get("cwd").asString()).isEqualTo("/work");

		JsonNode entries = ApiSessions.body(this.client.get().uri("/sessions/{id}/entries", newId).exchange()).get("items");
		assertThat(entries).hasSize(4);
		assertThat(entries.get(0).get("id").asString()).isEqualTo(u1);
		assertThat(entries.get(1).get("id").asString()).isEqualTo(a1);
		// the labels were re-created as fresh entries after the copied path
		assertThat(entries.get(2).get("type").asString()).isEqualTo("label");
		assertThat(entries.get(3).get("type").asString()).isEqualTo("label");
		assertThat(List.of(entries.get(2).get("id").asString(), entries.get(3).get("id").asString()))
			.doesNotContainAnyElementsOf(
					ApiSessions.body(this.client.get().uri("/sessions/{id}/entries", sessionId).exchange())
						.get("items")
						.valueStream()
						.map(entry -> entry.get("id").asString())
						.toList());
		assertThat(ApiSessions.body(this.client.get().uri("/sessions/{id}/labels", newId).exchange()))
			.isEqualTo(ApiSessions.json(("{\"" + u1 + "\":\"start\",\"" + a1 + "\":\"answer\"}").getBytes()));
		assertThat(session.get("leafId").asString()).isEqualTo(entries.get(3).get("id").asString());
		assertThat(stored().sessionBytes(sessionId)).as("the old session is untouched").isEqualTo(oldBytes);
		assertThat(this.hook.branchCalls).singleElement()
			.satisfies(preparation -> assertThat(preparation.entryId()).isEqualTo(u2));
	}

	@Test
	void branchingFromARootUserMessageShouldMakeANewEmptySession() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "first words");
		ApiSessions.appendAssistant(this.client, sessionId, "reply");
		byte[] oldBytes = stored().sessionBytes(sessionId);
		JsonNode branched = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branch", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", u1))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\""));
		assertThat(branched.get("selectedText").asString()).isEqualTo("first words");
		JsonNode session = branched.get("session");
		assertThat(session.get("entryCount").asInt()).isZero();
		assertThat(session.get("leafId").isNull()).isTrue();
		assertThat(session.get("parentSession").asString()).isEqualTo(sessionId);
		assertThat(stored().sessionBytes(sessionId)).isEqualTo(oldBytes);
	}

	@Test
	void branchingFromAnAssistantEntryShouldBeA422() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "two");
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/branch", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", a1))
			.exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "invalid-branch-entry");
		assertThat(problem.get("detail").asString()).isEqualTo("Invalid entry ID for branching: " + a1
				+ " is a message of role assistant, and /branch starts from a user message, whose text goes back to the"
				+ " editor; to copy the path up to any entry into a new session, POST its id as leafId to"
				+ " /sessions/{sessionId}/branched-sessions");
		assertThat(problem.get("entryId").asString()).isEqualTo(a1);
		assertThat(this.hook.branchCalls).isEmpty();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void branchingFromAnUnknownEntryShouldBeA404() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/branch", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", "nope1234"))
			.exchange(), HttpStatus.NOT_FOUND, "entry-not-found");
	}

	@Test
	void aCancellingHookShouldMakeNoSession() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		String u2 = ApiSessions.appendUser(this.client, sessionId, "three");
		this.hook.onBranch = preparation -> HookAnswer.CANCEL;
		Map<String, String> before = stored().snapshot();
		JsonNode answer = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branch", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", u2))
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(answer.get("cancelled").asBoolean()).isTrue();
		assertThat(answer.get("selectedText").asString()).isEqualTo("three");
		assertThat(answer.get("session").isNull()).isTrue();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void forkShouldCopyEveryBranchWithLabelsAndLeaf() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", u1))
			.exchange()
			.expectStatus()
			.isOk();
		ApiSessions.appendAssistant(this.client, sessionId, "another two");
		label(sessionId, u1, "start");
		byte[] oldBytes = stored().sessionBytes(sessionId);
		JsonNode fork = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/fork", sessionId)
			.exchange()
			.expectStatus()
			.isCreated());
		String forkId = fork.get("id").asString();
		assertThat(fork.get("parentSession").asString()).isEqualTo(sessionId);
		JsonNode original = ApiSessions.body(this.client.get().uri("/sessions/{id}/entries", sessionId).exchange());
		JsonNode copy = ApiSessions.body(this.client.get().uri("/sessions/{id}/entries", forkId).exchange());
		assertThat(copy.get("items")).isEqualTo(original.get("items"));
		assertThat(fork.get("leafId")).isEqualTo(
				ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange()).get("leafId"));
		assertThat(ApiSessions.body(this.client.get().uri("/sessions/{id}/labels", forkId).exchange()))
			.isEqualTo(ApiSessions.body(this.client.get().uri("/sessions/{id}/labels", sessionId).exchange()));
		assertThat(stored().sessionBytes(sessionId)).isEqualTo(oldBytes);
	}

	@Test
	void branchedSessionsShouldCopyThePathToTheLeafGiven() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "two");
		ApiSessions.appendUser(this.client, sessionId, "three");
		JsonNode session = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branched-sessions", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("leafId", a1))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + a1 + "\""));
		assertThat(session.get("entryCount").asInt()).isEqualTo(2);
		assertThat(session.get("leafId").asString()).isEqualTo(a1);
		JsonNode path = ApiSessions.body(this.client.get().uri("/sessions/{id}/path", session.get("id").asString()).exchange());
		assertThat(path).extracting(entry -> entry.get("id").asString()).containsExactly(u1, a1);
	}

	@Test
	void branchedSessionsFromAnUnknownLeafShouldBeA404AndMakeNoSession() {
		String sessionId = ApiSessions.create(this.client);
		Map<String, String> before = stored().snapshot();
		ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/branched-sessions", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("leafId", "nope1234"))
			.exchange(), HttpStatus.NOT_FOUND, "entry-not-found");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	private void label(String sessionId, String entryId, String label) {
		this.client.put()
			.uri("/sessions/{id}/labels/{e}", sessionId, entryId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("label", label))
			.exchange()
			.expectStatus()
			.isOk();
	}

}

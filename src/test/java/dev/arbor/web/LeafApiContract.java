package dev.arbor.web;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /sessions/{id}/leaf} and {@code /branch-summaries} over HTTP (docs/API.md#leaf-and-labels;
 * docs/SESSION-FORMAT.md#the-leaf). A contract: {@link FileLeafApiTests} and {@link PostgresLeafApiTests} run it on
 * each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class LeafApiContract {

	@Autowired
	RestTestClient client;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	@Test
	void getLeafShouldAnswerTheLeafWithItAsETag() {
		String sessionId = ApiSessions.create(this.client);
		this.client.get()
			.uri("/sessions/{id}/leaf", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("{\"leafId\":null}");
		String first = ApiSessions.appendUser(this.client, sessionId, "hi");
		this.client.get()
			.uri("/sessions/{id}/leaf", sessionId)
			.exchange()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + first + "\"")
			.expectBody()
			.jsonPath("$.leafId")
			.isEqualTo(first);
	}

	@Test
	void moveLeafShouldBranchAndPersistTheMove() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendAssistant(this.client, sessionId, "two");
		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.header(HttpHeaders.IF_MATCH, "\"" + second + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", first))
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + first + "\"")
			.expectBody()
			.json("{\"leafId\":\"" + first + "\"}");
		assertThat(stored().leafId(sessionId)).isEqualTo(first);
		String sibling = ApiSessions.appendAssistant(this.client, sessionId, "another answer");
		JsonNode entry = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{entryId}", sessionId, first)
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(entry.get("childIds").toString()).isEqualTo("[\"" + second + "\",\"" + sibling + "\"]");
	}

	@Test
	void moveLeafToNullShouldResetItSoTheNextAppendIsANewRoot() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"entryId\":null}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("{\"leafId\":null}");
		JsonNode root = ApiSessions.append(this.client, sessionId,
				"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"again\"}}");
		assertThat(root.get("parentId").isNull()).isTrue();
	}

	@Test
	void moveLeafWhenIfMatchIsStaleShouldReturn412WithTheLeafAndKeepIt() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendAssistant(this.client, sessionId, "two");
		Map<String, String> before = stored().snapshot();
		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", first))
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.PRECONDITION_FAILED)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + second + "\"")
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo("https://arbor.dev/problems/leaf-moved")
			.jsonPath("$.leafId")
			.isEqualTo(second)
			.jsonPath("$.sessionId")
			.isEqualTo(sessionId);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void branchSummaryShouldAttachAtFromIdAndBecomeTheLeaf() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendAssistant(this.client, sessionId, "two");
		JsonNode summary = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branch-summaries", sessionId)
			.header(HttpHeaders.IF_MATCH, "\"" + second + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"fromId\":\"" + first + "\",\"summary\":\"Tried two; came back.\",\"details\":{\"readFiles\":[\"a.ts\"]},\"fromExtension\":true}")
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueMatches(HttpHeaders.ETAG, "\"[0-9a-f]{8}\"")
			.expectHeader()
			.valueMatches(HttpHeaders.LOCATION, "/sessions/" + sessionId + "/entries/[0-9a-f]{8}"));
		assertThat(summary.get("type").asString()).isEqualTo("branch_summary");
		assertThat(summary.get("parentId").asString()).isEqualTo(first);
		assertThat(summary.get("fromId").asString()).isEqualTo(first);
		assertThat(summary.get("summary").asString()).isEqualTo("Tried two; came back.");
		assertThat(summary.get("details").toString()).isEqualTo("{\"readFiles\":[\"a.ts\"]}");
		assertThat(summary.get("fromExtension").asBoolean()).isTrue();
		this.client.get()
			.uri("/sessions/{id}/leaf", sessionId)
			.exchange()
			.expectBody()
			.jsonPath("$.leafId")
			.isEqualTo(summary.get("id").asString());
	}

	@Test
	void branchSummaryFromNullShouldStartANewRootWithFromIdRoot() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode summary = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branch-summaries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"fromId\":null,\"summary\":\"Started over.\"}")
			.exchange()
			.expectStatus()
			.isCreated());
		assertThat(summary.get("parentId").isNull()).isTrue();
		assertThat(summary.get("fromId").asString()).isEqualTo("root");
		assertThat(summary.has("details")).isFalse();
		assertThat(summary.has("fromExtension")).isFalse();
	}

}

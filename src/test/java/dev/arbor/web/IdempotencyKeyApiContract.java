package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Appends under an {@code Idempotency-Key} over HTTP (docs/API.md#idempotent-appends): a retry answers what the first
 * attempt stored and writes nothing. A contract: {@link FileIdempotencyKeyApiTests} and
 * {@link PostgresIdempotencyKeyApiTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class IdempotencyKeyApiContract {

	private static final String KEY = "Idempotency-Key";

	private static final String USER = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"Run the tests\"}}";

	@Autowired
	RestTestClient client;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	@Test
	void appendWhenRetriedWithTheSameKeyAndBodyShouldAnswerTheSameEntryAndStoreItOnce() {
		String sessionId = ApiSessions.create(this.client);
		EntityExchangeResult<byte[]> first = append(sessionId, "8e03978e-40d5-43e8-bc93-6894a57f9324", USER)
			.expectStatus()
			.isCreated()
			.expectBody()
			.returnResult();
		EntityExchangeResult<byte[]> retry = append(sessionId, "8e03978e-40d5-43e8-bc93-6894a57f9324", USER)
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true")
			.expectBody()
			.returnResult();
		assertThat(first.getResponseHeaders().containsHeader("Idempotent-Replayed")).isFalse();
		assertThat(retry.getResponseBody()).isEqualTo(first.getResponseBody());
		assertThat(retry.getResponseHeaders().getETag()).isEqualTo(first.getResponseHeaders().getETag());
		assertThat(retry.getResponseHeaders().getLocation()).isEqualTo(first.getResponseHeaders().getLocation());
		String id = ApiSessions.json(first.getResponseBody()).get("id").asString();
		assertThat(storedCount(sessionId, id)).isOne();
		assertThat(entryCount(sessionId)).isOne();
	}

	@Test
	void appendWhenRetriedAfterTheLeafMovedOnWithTheStaleIfMatchShouldStillAnswerTheFirstAttempt() {
		String sessionId = ApiSessions.create(this.client);
		JsonNode first = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.header(HttpHeaders.IF_MATCH, "\"root\"")
			.header(KEY, "retry-after-move")
			.body(USER)
			.exchange()
			.expectStatus()
			.isCreated());
		ApiSessions.appendUser(this.client, sessionId, "someone else's");
		this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.header(HttpHeaders.IF_MATCH, "\"root\"")
			.header(KEY, "retry-after-move")
			.body(USER)
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + first.get("id").asString() + "\"")
			.expectBody()
			.json(first.toString());
		assertThat(entryCount(sessionId)).isEqualTo(2);
	}

	@Test
	void appendArrayWhenRetriedShouldAnswerTheSameEntriesAndStoreThemOnce() {
		String sessionId = ApiSessions.create(this.client);
		String batch = "[" + USER + ",{\"type\":\"model_change\",\"model\":\"anthropic/claude-sonnet-4-5\"}]";
		JsonNode first = ApiSessions.body(append(sessionId, "batch-1", batch).expectStatus().isCreated());
		JsonNode retry = ApiSessions.body(append(sessionId, "batch-1", batch).expectStatus().isCreated());
		assertThat(retry).isEqualTo(first);
		assertThat(entryCount(sessionId)).isEqualTo(2);
	}

	@Test
	void appendWhenTheKeyCameWithAnotherBodyShouldReturn422AndWriteNothing() {
		String sessionId = ApiSessions.create(this.client);
		append(sessionId, "reused", USER).expectStatus().isCreated();
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.problem(append(sessionId, "reused", USER.replace("Run the tests", "Other")),
				HttpStatus.UNPROCESSABLE_CONTENT, "idempotency-key-reused");
		assertThat(problem.get("idempotencyKey").asString()).isEqualTo("reused");
		assertThat(problem.get("sessionId").asString()).isEqualTo(sessionId);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void appendWhenTheKeyIsUsedOnAnotherSessionShouldAppendThere() {
		String one = ApiSessions.create(this.client);
		String other = ApiSessions.create(this.client);
		append(one, "per-session", USER).expectStatus().isCreated().expectHeader().doesNotExist("Idempotent-Replayed");
		append(other, "per-session", USER).expectStatus().isCreated().expectHeader().doesNotExist("Idempotent-Replayed");
		assertThat(entryCount(one)).isOne();
		assertThat(entryCount(other)).isOne();
	}

	@Test
	void appendWhenTheKeyIsInvalidShouldReturn400SayingWhatAKeyIsAndWriteNothing() {
		String sessionId = ApiSessions.create(this.client);
		Map<String, String> before = stored().snapshot();
		for (String key : new String[] { "two words", "", "\"\"", "x".repeat(256), "\"a\\\"b\"", "a\tb" }) {
			JsonNode problem = ApiSessions.problem(append(sessionId, key, USER), HttpStatus.BAD_REQUEST,
					"invalid-idempotency-key");
			assertThat(problem.get("detail").asString()).as(key).contains("1 to 255");
		}
		ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.headers(headers -> {
				headers.add(KEY, "one");
				headers.add(KEY, "two");
			})
			.body(USER)
			.exchange(), HttpStatus.BAD_REQUEST, "invalid-idempotency-key");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void appendWhenTheKeyIsQuotedShouldBeTheSameKeyAsBare() {
		String sessionId = ApiSessions.create(this.client);
		JsonNode first = ApiSessions.body(append(sessionId, "\"quoted-or-not\"", USER).expectStatus().isCreated());
		append(sessionId, "quoted-or-not", USER).expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true")
			.expectBody()
			.json(first.toString());
		assertThat(entryCount(sessionId)).isOne();
	}

	@Test
	void appendWithoutAKeyShouldAppendEveryTime() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.append(this.client, sessionId, USER);
		ApiSessions.append(this.client, sessionId, USER);
		assertThat(entryCount(sessionId)).isEqualTo(2);
	}

	@Test
	void setLabelWhenRetriedWithTheSameKeyShouldAnswerTheSameLabelEntryAndStoreItOnce() {
		String sessionId = ApiSessions.create(this.client);
		String target = ApiSessions.appendUser(this.client, sessionId, "label me");
		JsonNode first = ApiSessions.body(label(sessionId, target, "label-1", "before refactor").expectStatus().isOk());
		label(sessionId, target, "label-1", "before refactor").expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true")
			.expectBody()
			.json(first.toString());
		ApiSessions.problem(label(sessionId, target, "label-1", "after refactor"), HttpStatus.UNPROCESSABLE_CONTENT,
				"idempotency-key-reused");
		assertThat(entryCount(sessionId)).isEqualTo(2);
	}

	private RestTestClient.ResponseSpec append(String sessionId, String key, String body) {
		return this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.header(KEY, key)
			.body(body)
			.exchange();
	}

	private RestTestClient.ResponseSpec label(String sessionId, String target, String key, String label) {
		return this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, target)
			.contentType(MediaType.APPLICATION_JSON)
			.header(KEY, key)
			.body(Map.of("label", label))
			.exchange();
	}

	/** The session's entries as the store holds them (the header and title slot are no entries). */
	private long entryCount(String sessionId) {
		return new String(stored().sessionBytes(sessionId), StandardCharsets.UTF_8).lines()
			.filter(line -> line.contains("\"parentId\""))
			.count();
	}

	private long storedCount(String sessionId, String entryId) {
		return new String(stored().sessionBytes(sessionId), StandardCharsets.UTF_8).lines()
			.filter(line -> line.contains("\"id\":\"" + entryId + "\""))
			.count();
	}

}

package dev.arbor.web;

import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /sessions/{id}/labels} over HTTP (docs/API.md#leaf-and-labels;
 * docs/SESSION-FORMAT.md#labels-compactions-branch-summaries-models-and-thinking-levels and
 * docs/SESSION-FORMAT.md#the-leaf): reading the resolved labels, and setting or clearing one, which appends a
 * {@code label} entry that becomes the leaf. A contract: {@link FileLabelApiTests} and {@link PostgresLabelApiTests}
 * run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class LabelApiContract {

	private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

	@Autowired
	RestTestClient client;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	// Reading

	@Test
	void getLabelsShouldMapEachTargetToItsLatestLabelInTheOrderLabelsWereFirstSet() {
		String sessionId = importSession(user("x", null, 1), user("y", "x", 2), user("z", "y", 3), user("w", "z", 4),
				label("l1", "w", 5, "y", "beta"), label("l2", "l1", 6, "x", "alpha"),
				// Renamed: keeps its place.
				label("l3", "l2", 7, "y", "beta 2"),
				// Set, then cleared by an empty label.
				label("l4", "l3", 8, "z", "gamma"), label("l5", "l4", 9, "z", ""),
				// Set, cleared by a label entry without a label, set again: now last.
				label("l6", "l5", 10, "w", "first"), entry("label", "l7", "l6", 11, "'targetId':'w'"),
				label("l8", "l7", 12, "w", "again"),
				// On an entry that does not exist: kept in the file, shown nowhere.
				label("l9", "l8", 13, "nowhere", "lost"));
		this.client.get()
			.uri("/sessions/{id}/labels", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"l9\"")
			.expectBody()
			.json("{\"y\":\"beta 2\",\"x\":\"alpha\",\"w\":\"again\"}", JsonCompareMode.STRICT);
		assertThat(labels(sessionId).propertyNames()).containsExactly("y", "x", "w");
	}

	@Test
	void getLabelsWhenNoneAreSetShouldAnswerAnEmptyObject() {
		String sessionId = ApiSessions.create(this.client);
		this.client.get()
			.uri("/sessions/{id}/labels", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("{}", JsonCompareMode.STRICT);
	}

	@Test
	void getLabelsWhenSessionIsUnknownShouldReturn404() {
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/labels", "no-such-session").exchange(), HttpStatus.NOT_FOUND,
				"session-not-found");
	}

	// Setting

	@Test
	void setLabelShouldAppendALabelEntryThatBecomesTheLeaf() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendAssistant(this.client, sessionId, "two");
		RestTestClient.ResponseSpec response = this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
			.header(HttpHeaders.IF_MATCH, "\"" + second + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"label\":\"before refactor\"}")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON);
		JsonNode entry = ApiSessions.body(response);
		String labelId = entry.get("id").asString();
		assertThat(labelId).matches("[0-9a-f]{8}");
		response.expectHeader().valueEquals(HttpHeaders.ETAG, "\"" + labelId + "\"");
		assertThat(entry.get("type").asString()).isEqualTo("label");
		assertThat(entry.get("targetId").asString()).isEqualTo(first);
		assertThat(entry.get("label").asString()).isEqualTo("before refactor");
		// An ordinary entry in the leaf's chain (docs/SESSION-FORMAT.md#the-leaf).
		assertThat(entry.get("parentId").asString()).isEqualTo(second);
		assertThat(entry.get("timestamp").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
		assertThat(leaf(sessionId)).isEqualTo(labelId);
		assertThat(labels(sessionId)).isEqualTo(ApiSessions.json("{\"%s\":\"before refactor\"}".formatted(first).getBytes()));
		JsonNode stored = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{entryId}", sessionId, first)
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(stored.get("label").asString()).isEqualTo("before refactor");
		assertThat(ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{entryId}", sessionId, labelId)
			.exchange()
			.expectStatus()
			.isOk()).get("entry")).isEqualTo(entry);
	}

	@Test
	void setLabelAgainShouldReplaceTheLabel() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		setLabel(sessionId, first, "{\"label\":\"draft\"}");
		JsonNode second = setLabel(sessionId, first, "{\"label\":\"final\"}");
		assertThat(labels(sessionId).get(first).asString()).isEqualTo("final");
		assertThat(leaf(sessionId)).isEqualTo(second.get("id").asString());
	}

	@Test
	void setLabelWhenBlankShouldClearItWithAnEntryWithoutALabel() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendUser(this.client, sessionId, "two");
		setLabel(sessionId, first, "{\"label\":\"keep\"}");
		setLabel(sessionId, second, "{\"label\":\"drop\"}");
		JsonNode clearing = setLabel(sessionId, second, "{\"label\":\"  \"}");
		assertThat(clearing.get("type").asString()).isEqualTo("label");
		assertThat(clearing.get("targetId").asString()).isEqualTo(second);
		assertThat(clearing.has("label")).isFalse();
		assertThat(labels(sessionId)).isEqualTo(ApiSessions.json("{\"%s\":\"keep\"}".formatted(first).getBytes()));
		JsonNode emptied = setLabel(sessionId, first, "{\"label\":\"\"}");
		assertThat(emptied.has("label")).isFalse();
		assertThat(labels(sessionId).isEmpty()).isTrue();
		assertThat(leaf(sessionId)).isEqualTo(emptied.get("id").asString());
	}

	@Test
	void setLabelOnALabelEntryShouldLabelThatEntry() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String labelId = setLabel(sessionId, first, "{\"label\":\"one\"}").get("id").asString();
		setLabel(sessionId, labelId, "{\"label\":\"meta\"}");
		assertThat(labels(sessionId).propertyNames()).containsExactly(first, labelId);
	}

	// Clearing

	@Test
	void clearLabelShouldAppendTheEntryThatClearsItAndMakeItTheLeaf() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String setting = setLabel(sessionId, first, "{\"label\":\"start\"}").get("id").asString();
		RestTestClient.ResponseSpec response = this.client.delete()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
			.header(HttpHeaders.IF_MATCH, "\"" + setting + "\"")
			.exchange()
			.expectStatus()
			.isOk();
		JsonNode clearing = ApiSessions.body(response);
		String clearingId = clearing.get("id").asString();
		response.expectHeader().valueEquals(HttpHeaders.ETAG, "\"" + clearingId + "\"");
		assertThat(clearing.get("type").asString()).isEqualTo("label");
		assertThat(clearing.get("targetId").asString()).isEqualTo(first);
		assertThat(clearing.get("parentId").asString()).isEqualTo(setting);
		assertThat(clearing.has("label")).isFalse();
		assertThat(leaf(sessionId)).isEqualTo(clearingId);
		assertThat(labels(sessionId).isEmpty()).isTrue();
	}

	@Test
	void clearLabelWhenEntryHasNoLabelShouldStillAppendAClearingEntry() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode clearing = ApiSessions.body(this.client.delete()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(clearing.get("parentId").asString()).isEqualTo(first);
		assertThat(leaf(sessionId)).isEqualTo(clearing.get("id").asString());
	}

	// Errors: nothing is written

	@Test
	void setLabelWhenEntryIsUnknownShouldReturn404AndWriteNothing() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.problem(this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, "deadbeef")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"label\":\"x\"}")
			.exchange(), HttpStatus.NOT_FOUND, "entry-not-found");
		assertThat(problem.get("detail").asString()).isEqualTo("Entry deadbeef not found");
		assertThat(problem.get("entryId").asString()).isEqualTo("deadbeef");
		assertThat(problem.get("sessionId").asString()).isEqualTo(sessionId);
		assertThat(stored().snapshot()).isEqualTo(before);
		assertThat(leaf(sessionId)).isEqualTo(first);
	}

	@Test
	void clearLabelWhenEntryIsUnknownShouldReturn404AndWriteNothing() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		Map<String, String> before = stored().snapshot();
		ApiSessions.problem(this.client.delete().uri("/sessions/{id}/labels/{entryId}", sessionId, "deadbeef").exchange(),
				HttpStatus.NOT_FOUND, "entry-not-found");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void setLabelWhenSessionIsUnknownShouldReturn404() {
		ApiSessions.problem(this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", "no-such-session", "deadbeef")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"label\":\"x\"}")
			.exchange(), HttpStatus.NOT_FOUND, "session-not-found");
	}

	@Test
	void setLabelWhenLabelIsMissingShouldReturn400NamingTheField() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		Map<String, String> before = stored().snapshot();
		for (String body : new String[] { "{}", "{\"label\":null}" }) {
			JsonNode problem = ApiSessions.problem(this.client.put()
				.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
				.contentType(MediaType.APPLICATION_JSON)
				.body(body)
				.exchange(), HttpStatus.BAD_REQUEST, "invalid-field");
			assertThat(problem.get("field").asString()).as(body).isEqualTo("label");
			assertThat(problem.get("detail").asString()).as(body).contains("label");
		}
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void setLabelWhenLabelIsNotAStringShouldReturn400NamingTheField() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		Map<String, String> before = stored().snapshot();
		for (String body : new String[] { "{\"label\":5}", "{\"label\":true}", "{\"label\":[\"x\"]}" }) {
			JsonNode problem = ApiSessions.problem(this.client.put()
				.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
				.contentType(MediaType.APPLICATION_JSON)
				.body(body)
				.exchange(), HttpStatus.BAD_REQUEST, "invalid-field");
			assertThat(problem.get("field").asString()).as(body).isEqualTo("label");
		}
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void setLabelWhenBodyIsNotJsonShouldReturn400() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.problem(this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"label\":")
			.exchange(), HttpStatus.BAD_REQUEST, "malformed-json");
	}

	@Test
	void setLabelWhenIfMatchIsStaleShouldReturn412WithTheLeafAndWriteNothing() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendAssistant(this.client, sessionId, "two");
		Map<String, String> before = stored().snapshot();
		RestTestClient.ResponseSpec response = this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"label\":\"x\"}")
			.exchange();
		JsonNode problem = ApiSessions.problem(response, HttpStatus.PRECONDITION_FAILED, "leaf-moved");
		response.expectHeader().valueEquals(HttpHeaders.ETAG, "\"" + second + "\"");
		assertThat(problem.get("leafId").asString()).isEqualTo(second);
		assertThat(stored().snapshot()).isEqualTo(before);
		assertThat(labels(sessionId).isEmpty()).isTrue();
	}

	@Test
	void clearLabelWhenIfMatchIsStaleShouldReturn412AndKeepTheLabel() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		setLabel(sessionId, first, "{\"label\":\"keep\"}");
		Map<String, String> before = stored().snapshot();
		ApiSessions.problem(this.client.delete()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, first)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.exchange(), HttpStatus.PRECONDITION_FAILED, "leaf-moved");
		assertThat(stored().snapshot()).isEqualTo(before);
		assertThat(labels(sessionId).get(first).asString()).isEqualTo("keep");
	}

	// Sessions and requests

	/** Imports a session file: a header with a fresh id, then the entries (JSON with single quotes). */
	private String importSession(String... entries) {
		String sessionId = "labels-" + UUID.randomUUID();
		StringBuilder file = new StringBuilder("{\"type\":\"session\",\"version\":3,\"id\":\"" + sessionId
				+ "\",\"timestamp\":\"" + at(0) + "\",\"cwd\":\"/work/project\"}\n");
		for (String entry : entries) {
			file.append(entry.replace('\'', '"')).append('\n');
		}
		this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(file.toString())
			.exchange()
			.expectStatus()
			.isCreated();
		return sessionId;
	}

	/** {@code PUT} a label (the body as JSON text) without a precondition; returns the label entry. */
	private JsonNode setLabel(String sessionId, String entryId, String body) {
		return ApiSessions.body(this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, entryId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isOk());
	}

	private JsonNode labels(String sessionId) {
		return ApiSessions.body(this.client.get().uri("/sessions/{id}/labels", sessionId).exchange().expectStatus().isOk());
	}

	private @Nullable String leaf(String sessionId) {
		JsonNode leaf = ApiSessions.body(this.client.get().uri("/sessions/{id}/leaf", sessionId).exchange().expectStatus().isOk());
		return leaf.get("leafId").isNull() ? null : leaf.get("leafId").asString();
	}

	// Entries, written as JSON with single quotes

	private static String entry(String type, String id, @Nullable String parentId, int second, String fields) {
		return "{'type':'" + type + "','id':'" + id + "','parentId':" + ((parentId != null) ? "'" + parentId + "'" : "null")
				+ ",'timestamp':'" + at(second) + "'" + (fields.isEmpty() ? "" : "," + fields) + "}";
	}

	private static String user(String id, @Nullable String parentId, int second) {
		return entry("message", id, parentId, second, "'message':{'role':'user','content':'message " + id + "'}");
	}

	private static String label(String id, String parentId, int second, String targetId, String label) {
		return entry("label", id, parentId, second, "'targetId':'" + targetId + "','label':'" + label + "'");
	}

	/** The stored timestamp {@code second} seconds into 2025. */
	private static String at(int second) {
		return String.format("2025-01-01T00:%02d:%02d.000Z", second / 60, second % 60);
	}

}

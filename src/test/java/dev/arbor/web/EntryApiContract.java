package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.arbor.TestSessions;
import dev.arbor.session.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Entries and paths over HTTP (docs/API.md#entries; docs/SESSION-FORMAT.md#the-tree). A contract:
 * {@link FileEntryApiTests} and {@link PostgresEntryApiTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class EntryApiContract {

	private static final String PROBLEMS = "https://arbor.dev/problems/";

	private static final String ENTRY_ID = "[0-9a-f]{8}";

	private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

	@Autowired
	RestTestClient client;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	@AfterEach
	void deleteImportedTestSession() {
		this.client.delete().uri("/sessions/{id}", TestSessions.SESSION_ID).exchange();
	}

	@Test
	void entriesOutsideAsciiAndLargerThanTheWriteBufferShouldComeBackByteForByte() {
		String sessionId = ApiSessions.create(this.client);
		String small = ApiSessions.appendUser(this.client, sessionId, "é 😀 中文 \u2028");
		String large = ApiSessions.appendUser(this.client, sessionId, "ünïcödé ".repeat(4000));
		byte[] path = this.client.get()
			.uri("/sessions/{id}/path", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();
		JsonNode entries = ApiSessions.json(path);
		assertThat(entries.get(0).get("id").asString()).isEqualTo(small);
		assertThat(entries.get(0).get("message").get("content").asString()).isEqualTo("é 😀 中文 \u2028");
		assertThat(entries.get(1).get("id").asString()).isEqualTo(large);
		assertThat(entries.get(1).get("message").get("content").asString()).isEqualTo("ünïcödé ".repeat(4000));
		JsonNode context = ApiSessions.body(this.client.get().uri("/sessions/{id}/context", sessionId).exchange().expectStatus().isOk());
		assertThat(context.get("messages").get(1).get("content").asString()).isEqualTo("ünïcödé ".repeat(4000));
	}

	@Test
	void appendWhenNoAcceptableResponseShouldReturn406AndAppendNothing() {
		String sessionId = ApiSessions.create(this.client);
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.accept(MediaType.parseMediaType("text/csv"))
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.NOT_ACCEPTABLE)
			.expectHeader()
			.doesNotExist(HttpHeaders.ETAG);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void appendEntryShouldReturn201WithTheStoredEntryKeepingEverySentField() {
		String sessionId = ApiSessions.create(this.client);
		String draft = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi ✓\"}],"
				+ "\"timestamp\":1763681581544},\"unknownField\":{\"nested\":[1,null,true,\"x\"]},"
				+ "\"price\":1.10,\"big\":12345678901234567890123,\"precise\":0.1000000000000000055}";
		Instant before = Instant.now().minusMillis(1);
		EntityExchangeResult<byte[]> result = this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(draft)
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectBody()
			.returnResult();
		String text = new String(result.getResponseBody(), StandardCharsets.UTF_8);
		JsonNode entry = json(text);
		String id = entry.get("id").asString();
		assertThat(id).matches(ENTRY_ID);
		assertThat(result.getResponseHeaders().getETag()).isEqualTo("\"" + id + "\"");
		assertThat(result.getResponseHeaders().getLocation()).hasToString("/sessions/" + sessionId + "/entries/" + id);
		assertThat(entry.get("parentId").isNull()).isTrue();
		assertThat(entry.get("timestamp").asString()).matches(TIMESTAMP);
		assertThat(Instant.parse(entry.get("timestamp").asString())).isAfter(before);
		assertThat(withoutBase(entry)).isEqualTo(json(draft));
		assertThat(text).contains("\"price\":1.10", "\"big\":12345678901234567890123",
				"\"precise\":0.1000000000000000055", "hi ✓");
		JsonNode stored = lastLine(sessionId);
		assertThat(stored).isEqualTo(entry);
		List<String> storedLines = textLines(stored().sessionBytes(sessionId));
		assertThat(storedLines.get(storedLines.size() - 1)).as("the answer is the stored line").isEqualTo(text);
		assertThat(getEntry(sessionId, id).get("entry")).isEqualTo(entry);
	}

	@Test
	void appendEntryShouldMakeItAChildOfTheLeafAndMoveTheLeafOntoIt() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode second = ApiSessions.append(this.client, sessionId, "{\"type\":\"thinking_level_change\",\"thinkingLevel\":\"high\"}");
		assertThat(second.get("parentId").asString()).isEqualTo(first);
		assertThat(withoutBase(second)).isEqualTo(json("{\"type\":\"thinking_level_change\",\"thinkingLevel\":\"high\"}"));
		this.client.get()
			.uri("/sessions/{id}/leaf", sessionId)
			.exchange()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(second.get("id").asString()))
			.expectBody()
			.jsonPath("$.leafId")
			.isEqualTo(second.get("id").asString());
	}

	@Test
	void appendArrayShouldStoreTheEntriesInOrderChainedUnderTheLeaf() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "run the tests");
		String batch = "[{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}},"
				+ "{\"type\":\"model_change\",\"model\":\"anthropic/claude-sonnet-4-5\",\"extra\":1.10},"
				+ "{\"type\":\"custom\",\"customType\":\"note\",\"data\":{\"n\":12345678901234567890123}}]";
		EntityExchangeResult<byte[]> result = this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(batch)
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.doesNotExist(HttpHeaders.LOCATION)
			.expectBody()
			.returnResult();
		JsonNode stored = ApiSessions.json(result.getResponseBody());
		assertThat(stored.isArray()).isTrue();
		assertThat(stored.size()).isEqualTo(3);
		String parent = first;
		for (int i = 0; i < 3; i++) {
			JsonNode entry = stored.get(i);
			assertThat(entry.get("id").asString()).matches(ENTRY_ID);
			assertThat(entry.get("parentId").asString()).isEqualTo(parent);
			assertThat(entry.get("timestamp").asString()).matches(TIMESTAMP);
			assertThat(withoutBase(entry)).isEqualTo(json(batch).get(i));
			parent = entry.get("id").asString();
		}
		assertThat(result.getResponseHeaders().getETag()).isEqualTo(etag(parent));
		assertThat(leafPath(sessionId)).containsExactly(entries(sessionId).get(0), stored.get(0), stored.get(1),
				stored.get(2));
	}

	@Test
	void appendArrayWhenOneEntryIsInvalidShouldReturn400AndAppendNone() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body("[{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"fine\"}},{\"type\":\"message\"}]")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "invalid-entry");
		assertThat(stored().snapshot()).isEqualTo(before);
		assertThat(entries(sessionId)).hasSize(1);
	}

	@Test
	void appendWhenIfMatchMatchesTheLeafShouldReturn201() {
		String sessionId = ApiSessions.create(this.client);
		JsonNode first = ApiSessions.body(appendWithIfMatch(sessionId, "\"root\"").expectStatus().isCreated());
		String firstId = first.get("id").asString();
		JsonNode second = ApiSessions.body(appendWithIfMatch(sessionId, etag(firstId)).expectStatus()
			.isCreated()
			.expectHeader()
			.valueMatches(HttpHeaders.ETAG, "\"" + ENTRY_ID + "\""));
		assertThat(second.get("parentId").asString()).isEqualTo(firstId);
	}

	@Test
	void appendWhenIfMatchIsStaleShouldReturn412AndChangeNothing() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendAssistant(this.client, sessionId, "two");
		Map<String, String> before = stored().snapshot();
		appendWithIfMatch(sessionId, etag(first)).expectStatus()
			.isEqualTo(HttpStatus.PRECONDITION_FAILED)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(second))
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "leaf-moved")
			.jsonPath("$.sessionId")
			.isEqualTo(sessionId)
			.jsonPath("$.leafId")
			.isEqualTo(second);
		assertThat(stored().snapshot()).isEqualTo(before);
		assertThat(entries(sessionId)).hasSize(2);
	}

	@Test
	void appendWhenIfMatchIsRootButTheSessionHasALeafShouldReturn412() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		Map<String, String> before = stored().snapshot();
		appendWithIfMatch(sessionId, "\"root\"").expectStatus()
			.isEqualTo(HttpStatus.PRECONDITION_FAILED)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(first));
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void appendWhenIfMatchIsAWildcardShouldReturn201() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode second = ApiSessions.body(appendWithIfMatch(sessionId, "*").expectStatus().isCreated());
		assertThat(second.get("parentId").asString()).isEqualTo(first);
	}

	@Test
	void appendWhenIfMatchListsTheLeafAmongOtherTagsShouldReturn201() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode second = ApiSessions.body(appendWithIfMatch(sessionId, "\"x\", " + etag(first)).expectStatus().isCreated());
		assertThat(second.get("parentId").asString()).isEqualTo(first);
	}

	@Test
	void appendWhenIfMatchIsAWeakTagOfTheLeafShouldReturn412AndChangeNothing() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		Map<String, String> before = stored().snapshot();
		appendWithIfMatch(sessionId, "W/" + etag(first)).expectStatus()
			.isEqualTo(HttpStatus.PRECONDITION_FAILED)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "leaf-moved");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void appendWhenSessionIsUnknownShouldReturn404() {
		this.client.post()
			.uri("/sessions/{id}/entries", "no-such-session")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "session-not-found")
			.jsonPath("$.sessionId")
			.isEqualTo("no-such-session");
	}

	@Test
	void listEntriesShouldReturnThemInFileOrderWithTheLeafAsETag() {
		Branched session = branched();
		JsonNode page = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries", session.id())
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(session.label()))
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON));
		assertThat(ids(page.get("items"))).containsExactly(session.root(), session.first(), session.second(),
				session.label());
		assertThat(page.get("nextCursor").isNull()).isTrue();
		assertThat(list(page.get("items"))).isEqualTo(storedLines(session.id()).subList(1, 5));
	}

	@Test
	void listEntriesOfAnEmptySessionShouldReturnNoItems() {
		String sessionId = ApiSessions.create(this.client);
		this.client.get()
			.uri("/sessions/{id}/entries", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("{\"items\":[],\"nextCursor\":null}", JsonCompareMode.STRICT);
	}

	@Test
	void listEntriesWithLimitAndAfterShouldVisitEveryEntryOnce() {
		String sessionId = ApiSessions.create(this.client);
		List<String> appended = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			appended.add(ApiSessions.appendUser(this.client, sessionId, "message " + i));
		}
		List<String> visited = new ArrayList<>();
		List<Integer> pageSizes = new ArrayList<>();
		JsonNode page = entryPage("/sessions/{id}/entries?limit=3", sessionId);
		while (true) {
			pageSizes.add(page.get("items").size());
			visited.addAll(ids(page.get("items")));
			if (page.get("nextCursor").isNull()) {
				break;
			}
			assertThat(page.get("nextCursor").asString()).isEqualTo(visited.get(visited.size() - 1));
			page = entryPage("/sessions/{id}/entries?limit=3&after={after}", sessionId, page.get("nextCursor").asString());
		}
		assertThat(pageSizes).containsExactly(3, 3, 1);
		assertThat(visited).containsExactlyElementsOf(appended);
		JsonNode lastFull = entryPage("/sessions/{id}/entries?limit=4&after={after}", sessionId, appended.get(2));
		assertThat(ids(lastFull.get("items"))).containsExactlyElementsOf(appended.subList(3, 7));
		assertThat(lastFull.get("nextCursor").isNull()).isTrue();
		JsonNode afterLast = entryPage("/sessions/{id}/entries?after={after}", sessionId, appended.get(6));
		assertThat(afterLast.get("items").size()).isZero();
		assertThat(afterLast.get("nextCursor").isNull()).isTrue();
	}

	@Test
	void listEntriesWhenAfterIsUnknownShouldReturn404() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		this.client.get()
			.uri("/sessions/{id}/entries?after={after}", sessionId, "0badc0de")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "entry-not-found")
			.jsonPath("$.entryId")
			.isEqualTo("0badc0de")
			.jsonPath("$.sessionId")
			.isEqualTo(sessionId);
	}

	@Test
	void listEntriesWhenLimitIsOutOfRangeShouldReturn400() {
		String sessionId = ApiSessions.create(this.client);
		for (String limit : List.of("0", "1001")) {
			this.client.get()
				.uri("/sessions/{id}/entries?limit={limit}", sessionId, limit)
				.exchange()
				.expectStatus()
				.isBadRequest()
				.expectHeader()
				.contentType(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody()
				.jsonPath("$.type")
				.isEqualTo(PROBLEMS + "invalid-parameter");
		}
	}

	@Test
	void getEntryShouldReturnTheEntryWithItsLabelAndChildIds() {
		Branched session = branched();
		JsonNode detail = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{eid}", session.id(), session.root())
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(session.label())));
		assertThat(detail.get("entry")).isEqualTo(entries(session.id()).get(0));
		assertThat(detail.get("label").asString()).isEqualTo("x");
		assertThat(ids(detail.get("childIds"), JsonNode::asString)).containsExactly(session.first(), session.second());
		JsonNode unlabelled = getEntry(session.id(), session.first());
		assertThat(unlabelled.get("label").isNull()).isTrue();
		assertThat(unlabelled.get("childIds").size()).isZero();
	}

	@Test
	void getEntryWhenUnknownShouldReturn404WithTheEntryId() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		expectEntryNotFound(this.client.get().uri("/sessions/{id}/entries/{eid}", sessionId, "0badc0de").exchange(),
				sessionId, "0badc0de");
	}

	@Test
	void getEntryWhenSessionIsUnknownShouldReturn404() {
		this.client.get()
			.uri("/sessions/{id}/entries/{eid}", "no-such-session", "0badc0de")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "session-not-found");
	}

	@Test
	void getChildrenShouldReturnThemInInsertionOrder() {
		String sessionId = ApiSessions.create(this.client);
		String root = ApiSessions.appendUser(this.client, sessionId, "root");
		List<JsonNode> children = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			ApiSessions.moveLeaf(this.client, sessionId, root);
			children.add(ApiSessions.append(this.client, sessionId,
					"{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":[]},\"n\":" + i + "}"));
		}
		String leaf = children.get(2).get("id").asString();
		JsonNode body = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{eid}/children", sessionId, root)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(leaf)));
		assertThat(list(body)).containsExactlyElementsOf(children);
		this.client.get()
			.uri("/sessions/{id}/entries/{eid}/children", sessionId, leaf)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.json("[]", JsonCompareMode.STRICT);
	}

	@Test
	void getChildrenWhenEntryIsUnknownShouldReturn404() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		expectEntryNotFound(
				this.client.get().uri("/sessions/{id}/entries/{eid}/children", sessionId, "0badc0de").exchange(),
				sessionId, "0badc0de");
	}

	@Test
	void getEntryPathShouldReturnTheEntriesFromTheRootDownToIt() {
		Branched session = branched();
		List<JsonNode> all = entries(session.id());
		JsonNode path = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{eid}/path", session.id(), session.first())
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(session.label())));
		assertThat(list(path)).containsExactly(all.get(0), all.get(1));
		JsonNode rootPath = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{eid}/path", session.id(), session.root())
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(list(rootPath)).containsExactly(all.get(0));
	}

	@Test
	void getEntryPathWhenEntryIsUnknownShouldReturn404() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		expectEntryNotFound(this.client.get().uri("/sessions/{id}/entries/{eid}/path", sessionId, "0badc0de").exchange(),
				sessionId, "0badc0de");
	}

	@Test
	void getLeafPathShouldReturnTheEntriesFromTheRootDownToTheLeaf() {
		Branched session = branched();
		List<JsonNode> all = entries(session.id());
		JsonNode path = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/path", session.id())
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(session.label())));
		assertThat(ids(path)).containsExactly(session.root(), session.second(), session.label());
		assertThat(list(path)).containsExactly(all.get(0), all.get(2), all.get(3));
	}

	@Test
	void getLeafPathOfAnEmptySessionShouldBeEmpty() {
		String sessionId = ApiSessions.create(this.client);
		this.client.get()
			.uri("/sessions/{id}/path", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("[]", JsonCompareMode.STRICT);
	}

	@Test
	void getLeafPathAfterResettingTheLeafShouldBeEmpty() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"entryId\":null}")
			.exchange()
			.expectStatus()
			.isOk();
		this.client.get()
			.uri("/sessions/{id}/path", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("[]", JsonCompareMode.STRICT);
	}

	@Test
	void getLeafPathWhenSessionIsUnknownShouldReturn404() {
		this.client.get()
			.uri("/sessions/{id}/path", "no-such-session")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "session-not-found");
	}

	@Test
	void entriesOfAnImportedOmpSessionShouldBeReturnedExactlyAsStored() {
		byte[] file = TestSessions.bytes(TestSessions.OMP_V3);
		List<String> fileLines = textLines(file);
		List<String> entryLines = fileLines.subList(2, fileLines.size());
		List<String> pathLines = pathToLastEntry(entryLines);
		assertThat(pathLines).hasSizeLessThan(entryLines.size()); // the session has branches
		String sessionId = TestSessions.SESSION_ID;
		this.client.post()
			.uri("/sessions/import")
			.contentType(MediaType.parseMediaType("application/x-ndjson"))
			.body(file)
			.exchange()
			.expectStatus()
			.isCreated();
		EntityExchangeResult<byte[]> result = this.client.get()
			.uri("/sessions/{id}/path", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, etag(json(entryLines.get(entryLines.size() - 1)).get("id").asString()))
			.expectBody()
			.returnResult();
		JsonNode path = ApiSessions.json(result.getResponseBody());
		assertThat(path.size()).isEqualTo(pathLines.size());
		for (int i = 0; i < pathLines.size(); i++) {
			assertThat(path.get(i)).as("entry %d of the path", i).isEqualTo(json(pathLines.get(i)));
		}
		assertThat(new String(result.getResponseBody(), StandardCharsets.UTF_8))
			.isEqualTo("[" + String.join(",", pathLines) + "]");
		List<JsonNode> listed = new ArrayList<>();
		JsonNode page = entryPage("/sessions/{id}/entries?limit=100", sessionId);
		listed.addAll(list(page.get("items")));
		page = entryPage("/sessions/{id}/entries?limit=100&after={after}", sessionId, page.get("nextCursor").asString());
		listed.addAll(list(page.get("items")));
		assertThat(page.get("nextCursor").isNull()).isTrue();
		assertThat(listed).containsExactlyElementsOf(entryLines.stream().map(EntryApiContract::json).toList());
	}

	/**
	 * root ← first, and root ← second (after moving the leaf back to root), then a label "x" on root, which
	 * becomes the leaf as a child of second.
	 */
	private Branched branched() {
		String sessionId = ApiSessions.create(this.client);
		String root = ApiSessions.appendUser(this.client, sessionId, "root");
		String first = ApiSessions.appendAssistant(this.client, sessionId, "first answer");
		ApiSessions.moveLeaf(this.client, sessionId, root);
		String second = ApiSessions.appendAssistant(this.client, sessionId, "second answer");
		JsonNode label = ApiSessions.body(this.client.put()
			.uri("/sessions/{id}/labels/{eid}", sessionId, root)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"label\":\"x\"}")
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(label.get("parentId").asString()).isEqualTo(second);
		return new Branched(sessionId, root, first, second, label.get("id").asString());
	}

	private record Branched(String id, String root, String first, String second, String label) {
	}

	private RestTestClient.ResponseSpec appendWithIfMatch(String sessionId, String ifMatch) {
		return this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.header(HttpHeaders.IF_MATCH, ifMatch)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"conditional\"}}")
			.exchange();
	}

	private JsonNode getEntry(String sessionId, String entryId) {
		return ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{eid}", sessionId, entryId)
			.exchange()
			.expectStatus()
			.isOk());
	}

	private JsonNode entryPage(String uri, Object... variables) {
		return ApiSessions.body(this.client.get().uri(uri, variables).exchange().expectStatus().isOk());
	}

	/** Every entry of a session in file order, as the API lists them. */
	private List<JsonNode> entries(String sessionId) {
		return list(entryPage("/sessions/{id}/entries?limit=1000", sessionId).get("items"));
	}

	private List<JsonNode> leafPath(String sessionId) {
		return list(ApiSessions.body(this.client.get().uri("/sessions/{id}/path", sessionId).exchange().expectStatus().isOk()));
	}

	private void expectEntryNotFound(RestTestClient.ResponseSpec response, String sessionId, String entryId) {
		response.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "entry-not-found")
			.jsonPath("$.status")
			.isEqualTo(404)
			.jsonPath("$.entryId")
			.isEqualTo(entryId)
			.jsonPath("$.sessionId")
			.isEqualTo(sessionId);
	}

	private JsonNode lastLine(String sessionId) {
		List<JsonNode> lines = storedLines(sessionId);
		return lines.get(lines.size() - 1);
	}

	/** The entry without what Arbor assigns, so it compares with the draft that was sent. */
	private static JsonNode withoutBase(JsonNode entry) {
		ObjectNode copy = (ObjectNode) entry.deepCopy();
		copy.remove(List.of("id", "parentId", "timestamp"));
		return copy;
	}

	private static String etag(String leafId) {
		return "\"" + leafId + "\"";
	}

	private static List<String> ids(JsonNode entries) {
		return ids(entries, entry -> entry.get("id").asString());
	}

	private static List<String> ids(JsonNode nodes, Function<JsonNode, String> id) {
		List<String> ids = new ArrayList<>();
		nodes.forEach(node -> ids.add(id.apply(node)));
		return ids;
	}

	private static List<JsonNode> list(JsonNode array) {
		List<JsonNode> items = new ArrayList<>();
		array.forEach(items::add);
		return items;
	}

	/** The stored lines from the root down to the last entry in file order, found by following each parentId. */
	private static List<String> pathToLastEntry(List<String> entryLines) {
		Map<String, String> byId = new HashMap<>();
		entryLines.forEach(line -> byId.put(json(line).get("id").asString(), line));
		List<String> path = new ArrayList<>();
		for (String line = entryLines.get(entryLines.size() - 1); line != null;) {
			path.add(line);
			JsonNode parentId = json(line).get("parentId");
			line = parentId.isNull() ? null : byId.get(parentId.asString());
		}
		Collections.reverse(path);
		return path;
	}

	private static List<String> textLines(byte[] file) {
		return new String(file, StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).toList();
	}

	/** The session's stored lines (header first, no title slot in these tests), each as JSON. */
	private List<JsonNode> storedLines(String sessionId) {
		return textLines(stored().sessionBytes(sessionId)).stream().map(EntryApiContract::json).toList();
	}

	private static JsonNode json(String text) {
		return Json.MAPPER.readTree(text);
	}

}

package dev.arbor.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.arbor.TestSessions;
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
 * {@code GET /sessions/{id}/tree/outline} over HTTP (docs/API.md#tree): the shape, the versions, the errors, and the
 * segments as runs of the {@code all} view's rows, on the branched test session and on a long generated one. A
 * contract: {@link FileTreeOutlineApiTests} and {@link PostgresTreeOutlineApiTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class TreeOutlineApiContract {

	/** The leaf of {@link TestSessions#OMP_V3} after import: its last entry in file order. */
	private static final String TEST_SESSION_LEAF = "992acf8d";

	@Autowired
	RestTestClient client;

	@Test
	void getOutlineOfTheTestSessionShouldFoldItIntoSevenSegmentsWithTheLeafAsETag() {
		ApiSessions.importOnce(this.client, TestSessions.SESSION_ID, TestSessions.bytes(TestSessions.OMP_V3));

		JsonNode outline = getOutline(TestSessions.SESSION_ID, TEST_SESSION_LEAF);

		assertThat(names(outline)).containsExactly("leafId", "entryCount", "segments");
		assertThat(outline.get("leafId").asString()).isEqualTo(TEST_SESSION_LEAF);
		assertThat(outline.get("entryCount").asInt()).isEqualTo(132);
		assertThat(outline.get("segments")).hasSize(7);
		JsonNode root = outline.get("segments").get(0);
		assertThat(names(root)).containsExactly("firstId", "lastId", "length", "parentId", "depth", "childSegments",
				"onActivePath", "containsLeaf", "firstUserText", "labelCount", "firstTimestamp", "lastTimestamp",
				"firstRowId", "lastRowId");
		assertThat(root.get("firstId").asString()).isEqualTo("51375eee");
		assertThat(root.get("lastId").asString()).isEqualTo("cde59dff");
		assertThat(root.get("length").asInt()).isEqualTo(62);
		assertThat(root.get("parentId").isNull()).isTrue();
		assertThat(root.get("depth").asInt()).isZero();
		assertThat(strings(root.get("childSegments"))).containsExactly("653bc9e4", "46123e84");
		assertThat(root.get("onActivePath").asBoolean()).isTrue();
		assertThat(root.get("containsLeaf").asBoolean()).isFalse();
		// The example of docs/API.md#tree.
		assertThat(root.get("firstUserText").asString()).isEqualTo("The site generator has no feed. Add an RSS 2.0 "
				+ "feed at /feed.xml built from the posts in content/posts, newest first, at most 20 items.");
		assertThat(root.get("labelCount").asInt()).isZero();
		assertThat(root.get("firstTimestamp").asString()).isEqualTo("2025-10-14T09:13:17.834Z");
		assertThat(root.get("lastTimestamp").asString()).isEqualTo("2025-10-16T12:38:12.365Z");
		assertThat(root.get("firstRowId").asString()).isEqualTo("51375eee");
		assertThat(root.get("lastRowId").asString()).isEqualTo("cde59dff");
		JsonNode leafSegment = outline.get("segments").get(3);
		assertThat(leafSegment.get("lastId").asString()).isEqualTo(TEST_SESSION_LEAF);
		assertThat(leafSegment.get("containsLeaf").asBoolean()).isTrue();
		assertThat(leafSegment.get("parentId").asString()).isEqualTo("98abed60");
		int lengths = 0;
		for (JsonNode segment : outline.get("segments")) {
			lengths += segment.get("length").asInt();
		}
		assertThat(lengths).isEqualTo(132);
	}

	@Test
	void segmentsExpandedFromFirstRowIdToLastRowIdShouldGiveTheAllViewsRowsInOrder() {
		ApiSessions.importOnce(this.client, TestSessions.SESSION_ID, TestSessions.bytes(TestSessions.OMP_V3));
		JsonNode outline = getOutline(TestSessions.SESSION_ID, TEST_SESSION_LEAF);
		JsonNode rows = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/tree/rows?filter=all&limit=10000", TestSessions.SESSION_ID)
			.exchange()
			.expectStatus()
			.isOk());
		List<String> rowIds = new ArrayList<>();
		rows.get("rows").forEach(row -> rowIds.add(row.get("id").asString()));

		int next = 0;
		for (JsonNode segment : outline.get("segments")) {
			if (segment.get("firstRowId").isNull()) {
				continue;
			}
			assertThat(rowIds.get(next)).as("the row after the previous segment's").isEqualTo(segment.get("firstRowId").asString());
			int end = rowIds.indexOf(segment.get("lastRowId").asString());
			assertThat(end - next + 1).isBetween(1, segment.get("length").asInt());
			next = end + 1;
		}
		assertThat(next).isEqualTo(rowIds.size());
	}

	@Test
	void getOutlineWhenIfNoneMatchIsTheLeafShouldAnswer304UntilTheLeafMoves() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "two");

		this.client.get()
			.uri("/sessions/{id}/tree/outline", sessionId)
			.header(HttpHeaders.IF_NONE_MATCH, "\"" + a1 + "\"")
			.exchange()
			.expectStatus()
			.isNotModified()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + a1 + "\"");
		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", u1))
			.exchange()
			.expectStatus()
			.isOk();
		JsonNode outline = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/tree/outline", sessionId)
			.header(HttpHeaders.IF_NONE_MATCH, "\"" + a1 + "\"")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + u1 + "\""));
		assertThat(outline.get("segments").get(0).get("containsLeaf").asBoolean()).isTrue();
	}

	@Test
	void getOutlineOfAnEmptySessionShouldHaveNoSegmentsAndTheRootTag() {
		String sessionId = ApiSessions.create(this.client);

		JsonNode outline = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/tree/outline", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\""));

		assertThat(outline.get("leafId").isNull()).isTrue();
		assertThat(outline.get("entryCount").asInt()).isZero();
		assertThat(outline.get("segments")).isEmpty();
	}

	@Test
	void getOutlineOfALongSessionWithTwoBranchPointsShouldStaySmall() {
		String sessionId = ApiSessions.create(this.client);
		List<String> ids = ApiSessions.appendUsers(this.client, sessionId, "message", 3000);
		ApiSessions.moveLeaf(this.client, sessionId, ids.get(999));
		String side = ApiSessions.appendUser(this.client, sessionId, "a side branch");
		ApiSessions.moveLeaf(this.client, sessionId, ids.get(1999));
		String other = ApiSessions.appendUser(this.client, sessionId, "another side branch");

		byte[] body = this.client.get()
			.uri("/sessions/{id}/tree/outline", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();

		JsonNode outline = ApiSessions.json(body);
		assertThat(body.length).isLessThan(3000);
		assertThat(outline.get("entryCount").asInt()).isEqualTo(3002);
		List<String> firstIds = new ArrayList<>();
		List<Integer> lengths = new ArrayList<>();
		outline.get("segments").forEach(segment -> {
			firstIds.add(segment.get("firstId").asString());
			lengths.add(segment.get("length").asInt());
		});
		assertThat(firstIds).containsExactly(ids.get(0), ids.get(1000), other, ids.get(2000), side);
		assertThat(lengths).containsExactly(1000, 1000, 1, 1000, 1);
	}

	@Test
	void getOutlineWhenSessionIsUnknownOrIdInvalidShouldAnswerProblems() {
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/outline", "no-such-session").exchange(),
				HttpStatus.NOT_FOUND, "session-not-found");
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/outline", "-bad").exchange(),
				HttpStatus.BAD_REQUEST, "invalid-id");
	}

	/** The outline, checking the status, the media type and that {@code ETag} is the leaf. */
	private JsonNode getOutline(String sessionId, String leafId) {
		return ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/tree/outline", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + leafId + "\""));
	}

	private static List<String> names(JsonNode object) {
		return new ArrayList<>(object.propertyNames());
	}

	private static List<String> strings(JsonNode array) {
		List<String> strings = new ArrayList<>();
		array.forEach(element -> strings.add(element.asString()));
		return strings;
	}

}

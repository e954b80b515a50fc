package dev.arbor.web;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import dev.arbor.TestSessions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pages of {@code GET /sessions/{id}/tree/rows} (docs/API.md#tree): the selected row, windows around an entry,
 * cursors forward and backward that meet with nothing missed or repeated, pages at a row's index, and the same once
 * the session changed (an append, a leaf move, a label), on the branched oh-my-pi test session. Whole views read at
 * once are the reference each page is checked against; {@code SelectorFidelityTests} checks those views against
 * upstream. A contract: {@link FileTreeRowsWindowApiTests} and {@link PostgresTreeRowsWindowApiTests} run it on each
 * store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class TreeRowsWindowApiContract {

	/** The session's leaf after import: a {@code custom} entry, which the default filter hides. */
	private static final String CUSTOM_LEAF = "992acf8d";

	/** The nearest ancestor of that leaf which the default filter shows: where upstream's selector opens. */
	private static final String LEAF_ANCESTOR = "45ad1d5b";

	private static final List<String> FILTERS = List.of("default", "no-tools", "user-only", "labeled-only", "all");

	@Autowired
	RestTestClient client;

	@Test
	void rowsWhenLeafIsHiddenShouldSelectItsNearestShownAncestorOnEveryPage() {
		String sessionId = importFeedSession();
		JsonNode first = rows(sessionId, "limit=10");
		assertThat(first.get("selectedId").asString()).isEqualTo(LEAF_ANCESTOR);
		assertThat(first.get("selectedIndex").asInt()).isEqualTo(74);
		assertThat(first.get("matched").asInt()).isEqualTo(87);
		assertThat(first.get("rows")).noneMatch(row -> row.get("selected").asBoolean());
		JsonNode all = rows(sessionId, "filter=all&limit=10");
		assertThat(all.get("selectedId").asString()).isEqualTo(CUSTOM_LEAF);
		JsonNode labeled = rows(sessionId, "filter=labeled-only");
		// No labelled ancestor of the leaf: the last row, as upstream falls back.
		assertThat(labeled.get("selectedIndex").asInt()).isEqualTo(labeled.get("matched").asInt() - 1);
	}

	@Test
	void rowsAroundSelectedShouldCentreThePageOnTheSelectedRowAsUpstreamPlacesItsWindow() {
		String sessionId = importFeedSession();
		JsonNode page = rows(sessionId, "limit=11&aroundSelected=true");
		assertThat(indexes(page)).containsExactly(69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79);
		assertThat(selected(page)).containsExactly(LEAF_ANCESTOR);
		assertThat(page.get("prevCursor").asString()).isEqualTo(ids(page).get(0));
		assertThat(page.get("nextCursor").asString()).isEqualTo(ids(page).get(10));
		// Near the end the window stops at the last row rather than run past it.
		JsonNode end = rows(sessionId, "limit=40&aroundSelected=true");
		assertThat(indexes(end)).startsWith(47).endsWith(86);
		assertThat(end.get("nextCursor").isNull()).isTrue();
	}

	@Test
	void rowsAroundAnEntryShouldCentreOnItsRowOrOnItsNearestShownAncestor() {
		String sessionId = importFeedSession();
		JsonNode whole = rows(sessionId, "filter=all&limit=1000");
		String middle = ids(whole).get(50);
		JsonNode around = rows(sessionId, "filter=all&limit=5&around=" + middle);
		assertThat(ids(around)).isEqualTo(ids(whole).subList(48, 53));
		// The custom leaf is hidden by default: its nearest shown ancestor is the centre.
		JsonNode aroundLeaf = rows(sessionId, "limit=5&around=" + CUSTOM_LEAF);
		assertThat(ids(aroundLeaf).get(2)).isEqualTo(LEAF_ANCESTOR);
		ApiSessions.problem(
				this.client.get().uri("/sessions/{id}/tree/rows?around=nosuchid", sessionId).exchange(),
				HttpStatus.NOT_FOUND, "entry-not-found");
	}

	@Test
	void rowsFromAnEntryShouldStartAtItsRowOrAtTheRowAfterWhereItWouldBe() {
		String sessionId = importFeedSession();
		JsonNode whole = rows(sessionId, "limit=1000");
		String row = ids(whole).get(30);
		assertThat(ids(rows(sessionId, "limit=3&from=" + row))).isEqualTo(ids(whole).subList(30, 33));
		// A label entry is never a default row: the page starts at the row that follows where it would be.
		JsonNode all = rows(sessionId, "filter=all&limit=1000");
		String label = firstOfType(all, "label");
		int labelIndex = ids(all).indexOf(label);
		String following = ids(all).subList(labelIndex + 1, ids(all).size())
			.stream()
			.filter(ids(whole)::contains)
			.findFirst()
			.orElseThrow();
		assertThat(ids(rows(sessionId, "limit=2&from=" + label)).get(0)).isEqualTo(following);
	}

	@Test
	void cursorsForwardAndBackwardShouldMeetWithoutGapsOrRepeatsUnderEveryFilter() {
		String sessionId = importFeedSession();
		for (String filter : FILTERS) {
			assertPagingMatchesTheWholeView(sessionId, "filter=" + filter);
		}
		assertPagingMatchesTheWholeView(sessionId, "filter=all&q=feed");
	}

	@Test
	void cursorsShouldStillMeetAfterAnAppendALeafMoveAndALabel() {
		String sessionId = importFeedSession();
		String version = rows(sessionId, "limit=1").get("version").asString();

		ApiSessions.appendUser(this.client, sessionId, "one more turn");
		String afterAppend = rows(sessionId, "limit=1").get("version").asString();
		assertPagingMatchesTheWholeView(sessionId, "filter=default");

		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", "653bc9e4"))
			.exchange()
			.expectStatus()
			.isOk();
		JsonNode moved = rows(sessionId, "limit=5&aroundSelected=true");
		assertThat(moved.get("selectedId").asString()).isEqualTo("653bc9e4");
		assertThat(selected(moved)).containsExactly("653bc9e4");
		assertPagingMatchesTheWholeView(sessionId, "filter=no-tools");

		this.client.put()
			.uri("/sessions/{id}/labels/{entryId}", sessionId, "51375eee")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("label", "start"))
			.exchange()
			.expectStatus()
			.isOk();
		JsonNode labeled = rows(sessionId, "filter=labeled-only&limit=1000");
		assertThat(ids(labeled)).contains("51375eee");
		assertPagingMatchesTheWholeView(sessionId, "filter=labeled-only");
		assertPagingMatchesTheWholeView(sessionId, "filter=all");

		String afterLabel = rows(sessionId, "limit=1").get("version").asString();
		assertThat(List.of(version, afterAppend, afterLabel)).doesNotHaveDuplicates();
	}

	@Test
	void cursorWhenItsRowLeftTheViewShouldReturn400AndVersionShouldSayTheViewChanged() {
		String sessionId = importFeedSession();
		JsonNode all = rows(sessionId, "filter=all&limit=1000");
		JsonNode page = rows(sessionId, "filter=all&limit=3&around=" + CUSTOM_LEAF);
		String version = page.get("version").asString();
		assertThat(rows(sessionId, "filter=all&limit=3&cursor=" + page.get("prevCursor").asString()).get("version")
			.asString()).isEqualTo(version);
		// A label on a labelled-only view's row, then cleared: the cursor's row is gone from that view.
		String labelled = ids(rows(sessionId, "filter=labeled-only")).get(0);
		this.client.delete().uri("/sessions/{id}/labels/{entryId}", sessionId, labelled).exchange().expectStatus().isOk();
		JsonNode problem = ApiSessions.problem(
				this.client.get().uri("/sessions/{id}/tree/rows?filter=labeled-only&cursor=" + labelled, sessionId).exchange(),
				HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(problem.get("parameter").asString()).isEqualTo("cursor");
		assertThat(rows(sessionId, "filter=all&limit=3").get("version").asString()).isNotEqualTo(version);
		assertThat(all.get("matched").asInt()).isEqualTo(101);
	}

	@Test
	void rowsWhenTwoPositionsAreGivenShouldReturn400() {
		String sessionId = importFeedSession();
		JsonNode problem = ApiSessions.problem(this.client.get()
			.uri("/sessions/{id}/tree/rows?cursor={c}&aroundSelected=true", sessionId, LEAF_ANCESTOR)
			.exchange(), HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(problem.get("detail").asString()).contains("cursor", "aroundSelected");
	}

	@Test
	void rowsAtAnOffsetShouldBeTheRowsWithThoseIndexesAsPagingByCursorGivesThem() {
		String sessionId = importFeedSession();
		List<String> whole = ids(rows(sessionId, "limit=10000"));
		assertThat(rows(sessionId, "offset=0&limit=10")).isEqualTo(rows(sessionId, "limit=10"));
		JsonNode page = rows(sessionId, "limit=10");
		for (int offset = 10; offset < whole.size(); offset += 10) {
			page = rows(sessionId, "limit=10&cursor=" + page.get("nextCursor").asString());
			assertThat(rows(sessionId, "limit=10&offset=" + offset)).as("offset %d", offset).isEqualTo(page);
		}
		JsonNode middle = rows(sessionId, "offset=30&limit=7");
		assertThat(indexes(middle)).containsExactly(30, 31, 32, 33, 34, 35, 36);
		assertThat(ids(middle)).isEqualTo(whole.subList(30, 37));
		assertThat(middle.get("prevCursor").asString()).isEqualTo(whole.get(30));
		assertThat(middle.get("nextCursor").asString()).isEqualTo(whole.get(36));
		// Cut at the last row.
		JsonNode end = rows(sessionId, "offset=80&limit=10");
		assertThat(indexes(end)).containsExactly(80, 81, 82, 83, 84, 85, 86);
		assertThat(end.get("prevCursor").asString()).isEqualTo(whole.get(80));
		assertThat(end.get("nextCursor").isNull()).isTrue();
	}

	@Test
	void rowsAtAnOffsetPastTheLastRowShouldBeAnEmptyPageWithoutCursors() {
		String sessionId = importFeedSession();
		for (String offset : List.of("87", "88", "400000", Integer.toString(Integer.MAX_VALUE))) {
			JsonNode page = rows(sessionId, "limit=10&offset=" + offset);
			assertThat(page.get("rows")).as(offset).isEmpty();
			assertThat(page.get("matched").asInt()).isEqualTo(87);
			assertThat(page.get("selectedId").asString()).isEqualTo(LEAF_ANCESTOR);
			assertThat(page.get("prevCursor").isNull()).isTrue();
			assertThat(page.get("nextCursor").isNull()).isTrue();
		}
	}

	@Test
	void rowsAtAnOffsetShouldCountTheIndexesOfTheFilteredAndSearchedView() {
		String sessionId = importFeedSession();
		for (String view : List.of("filter=user-only", "filter=all&q=feed")) {
			List<String> whole = ids(rows(sessionId, view + "&limit=10000"));
			assertThat(whole).as(view).hasSizeGreaterThan(5);
			JsonNode page = rows(sessionId, view + "&limit=3&offset=2");
			assertThat(indexes(page)).as(view).containsExactly(2, 3, 4);
			assertThat(ids(page)).as(view).isEqualTo(whole.subList(2, 5));
			assertThat(rows(sessionId, view + "&offset=" + whole.size()).get("rows")).as(view).isEmpty();
		}
	}

	@Test
	void rowsWhenOffsetIsGivenWithACursorOrIsNotAnIndexShouldReturn400() {
		String sessionId = importFeedSession();
		JsonNode both = ApiSessions.problem(this.client.get()
			.uri("/sessions/{id}/tree/rows?cursor={c}&offset=5", sessionId, LEAF_ANCESTOR)
			.exchange(), HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(both.get("parameter").asString()).isEqualTo("offset");
		assertThat(both.get("detail").asString()).contains("cursor", "offset");
		for (String offset : List.of("-1", "many", "1.5", "")) {
			JsonNode problem = ApiSessions.problem(
					this.client.get().uri("/sessions/{id}/tree/rows?offset=" + offset, sessionId).exchange(),
					HttpStatus.BAD_REQUEST, "invalid-parameter");
			assertThat(problem.get("parameter").asString()).as(offset).isEqualTo("offset");
		}
	}

	/**
	 * Pages forward from the start and backward from the end, at several sizes, and checks that each way gives the
	 * whole view once, in order; and that a window around each tenth row is the matching slice of it.
	 */
	private void assertPagingMatchesTheWholeView(String sessionId, String view) {
		JsonNode whole = rows(sessionId, view + "&limit=10000");
		List<String> expected = ids(whole);
		for (int limit : new int[] { 1, 7, 50 }) {
			List<String> forward = new ArrayList<>();
			JsonNode page = rows(sessionId, view + "&limit=" + limit);
			forward.addAll(ids(page));
			while (!page.get("nextCursor").isNull()) {
				assertThat(page.get("version").asString()).isEqualTo(whole.get("version").asString());
				page = rows(sessionId, view + "&limit=" + limit + "&cursor=" + page.get("nextCursor").asString());
				forward.addAll(ids(page));
			}
			assertThat(forward).as("%s forward, %d a page", view, limit).isEqualTo(expected);

			List<String> backward = new ArrayList<>();
			if (!expected.isEmpty()) {
				page = rows(sessionId, view + "&limit=" + limit + "&from=" + expected.get(expected.size() - 1));
				backward.addAll(ids(page));
				while (!page.get("prevCursor").isNull()) {
					page = rows(sessionId, view + "&limit=" + limit + "&before=" + page.get("prevCursor").asString());
					List<String> earlier = new ArrayList<>(ids(page));
					Collections.reverse(earlier);
					earlier.forEach(id -> backward.add(0, id));
				}
			}
			assertThat(backward).as("%s backward, %d a page", view, limit).isEqualTo(expected);
		}
		for (int i = 0; i < expected.size(); i += 10) {
			JsonNode window = rows(sessionId, view + "&limit=5&around=" + expected.get(i));
			int start = Math.max(0, Math.min(i - 2, expected.size() - 5));
			assertThat(ids(window)).isEqualTo(expected.subList(start, Math.min(start + 5, expected.size())));
			assertThat(indexes(window).get(0)).isEqualTo(start);
		}
	}

	private String importFeedSession() {
		JsonNode created = ApiSessions.body(this.client.post()
			.uri("/sessions/import?newId=true")
			.contentType(MediaType.parseMediaType("application/x-ndjson"))
			.body(TestSessions.bytes(TestSessions.OMP_V3))
			.exchange()
			.expectStatus()
			.isCreated());
		return created.get("id").asString();
	}

	private JsonNode rows(String sessionId, String query) {
		return ApiSessions.body(
				this.client.get().uri("/sessions/" + sessionId + "/tree/rows?" + query).exchange().expectStatus().isOk());
	}

	private static List<String> ids(JsonNode page) {
		List<String> ids = new ArrayList<>();
		page.get("rows").forEach(row -> ids.add(row.get("id").asString()));
		return ids;
	}

	private static List<Integer> indexes(JsonNode page) {
		List<Integer> indexes = new ArrayList<>();
		page.get("rows").forEach(row -> indexes.add(row.get("index").asInt()));
		return indexes;
	}

	private static List<String> selected(JsonNode page) {
		List<String> selected = new ArrayList<>();
		page.get("rows").forEach(row -> {
			if (row.get("selected").asBoolean()) {
				selected.add(row.get("id").asString());
			}
		});
		return selected;
	}

	private static String firstOfType(JsonNode page, String type) {
		for (JsonNode row : page.get("rows")) {
			if (row.get("type").asString().equals(type)) {
				return row.get("id").asString();
			}
		}
		throw new AssertionError("No " + type + " row in " + page);
	}

}

package dev.arbor.web;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.arbor.Fixtures;
import dev.arbor.TestSessions;
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
 * {@code GET /sessions/{id}/tree} and {@code /tree/rows} over HTTP (docs/API.md#tree; docs/SESSION-FORMAT.md#the-tree
 * and docs/SESSION-FORMAT.md#the-selector-rows), on sessions imported from hand-written JSONL (fixed ids, timestamps
 * and branches) and on the oh-my-pi fixture. A contract: {@link FileTreeApiTests} and {@link PostgresTreeApiTests} run
 * it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class TreeApiContract {

	/** The header id of {@link Fixtures#OMP_V3}, under which the import stores it. */
	private static final String OMP_ID = "d703a1a9-1b7b-4fb1-b512-c9738b1fe617";

	/** The fixture's last entry in file order (a {@code custom} entry), which is its leaf after import. */
	private static final String OMP_LEAF = "c7739972";

	/** The leaf of {@link TestSessions#OMP_V3} after import: its last entry in file order. */
	private static final String TEST_SESSION_LEAF = "992acf8d";

	private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

	private static final String TOOL_CALL = "{'type':'toolCall','id':'call1','name':'read','arguments':{'path':'src/loader.ts'}}";

	@Autowired
	RestTestClient client;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	// getTree (docs/SESSION-FORMAT.md#the-tree)

	@Test
	void getTreeShouldListEveryEntryOnceInFileOrderWithItsParentTypeAndTimestamp() {
		String sessionId = importSession(user("aaaa0001", null, 1, "hello"),
				assistant("aaaa0002", "aaaa0001", 2, "hi"),
				entry("thinking_level_change", "bbbb0003", "aaaa0002", 3, "'thinkingLevel':'high'"),
				user("side-4", "aaaa0002", 4, "again"));
		JsonNode tree = getTree(sessionId, "side-4");
		assertThat(tree.get("leafId").asString()).isEqualTo("side-4");
		assertThat(nodeIds(tree)).containsExactly("aaaa0001", "aaaa0002", "bbbb0003", "side-4");
		JsonNode thinking = node(tree, "bbbb0003");
		assertThat(thinking.get("parentId").asString()).isEqualTo("aaaa0002");
		assertThat(thinking.get("type").asString()).isEqualTo("thinking_level_change");
		assertThat(thinking.get("timestamp").asString()).isEqualTo(at(3));
		assertThat(thinking.get("label").isNull()).isTrue();
		assertThat(strings(thinking.get("childIds"))).isEmpty();
		assertThat(node(tree, "aaaa0001").get("parentId").isNull()).isTrue();
	}

	@Test
	void getTreeWhenChildrenWereWrittenOutOfTimestampOrderShouldSortThemByTimestamp() {
		// Written in the order late, early, middle: the file order differs from the timestamp order.
		String sessionId = importSession(user("aaaa0001", null, 1, "question"),
				assistant("late0005", "aaaa0001", 5, "third answer"), assistant("early002", "aaaa0001", 2, "first answer"),
				assistant("mid00003", "aaaa0001", 3, "second answer"), user("tied0003", "aaaa0001", 3, "same time"));
		JsonNode tree = getTree(sessionId, "tied0003");
		assertThat(nodeIds(tree)).containsExactly("aaaa0001", "late0005", "early002", "mid00003", "tied0003");
		// Equal timestamps keep their file order (stable sort).
		assertThat(strings(node(tree, "aaaa0001").get("childIds"))).containsExactly("early002", "mid00003", "tied0003",
				"late0005");
		// The entries endpoint keeps insertion order for the same children (docs/API.md#entries).
		JsonNode entry = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{entryId}", sessionId, "aaaa0001")
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(strings(entry.get("childIds"))).containsExactly("late0005", "early002", "mid00003", "tied0003");
	}

	@Test
	void getTreeWhenSeveralRootsShouldListThemInFileOrderNotByTimestamp() {
		String sessionId = importSession(user("root0001", null, 5, "first root"), assistant("kid00001", "root0001", 6, "reply"),
				user("root0002", null, 1, "second root, earlier timestamp"), user("root0003", null, 3, "third root"));
		JsonNode tree = getTree(sessionId, "root0003");
		assertThat(strings(tree.get("rootIds"))).containsExactly("root0001", "root0002", "root0003");
	}

	@Test
	void getTreeWhenParentIdNamesNoEntryShouldMakeThatEntryARootWithNullParent() {
		String sessionId = importSession(user("aaaa0001", null, 1, "hello"), user("orphan01", "deadbeef", 2, "lost parent"),
				assistant("aaaa0003", "orphan01", 3, "still attached to the orphan"),
				user("selfish1", "selfish1", 4, "my own parent"));
		JsonNode tree = getTree(sessionId, "selfish1");
		assertThat(strings(tree.get("rootIds"))).containsExactly("aaaa0001", "orphan01", "selfish1");
		JsonNode orphan = node(tree, "orphan01");
		assertThat(orphan.get("parentId").isNull()).isTrue();
		assertThat(strings(orphan.get("childIds"))).containsExactly("aaaa0003");
		assertThat(strings(node(tree, "aaaa0001").get("childIds"))).isEmpty();
		// An entry naming itself as parent is a root too (docs/SESSION-FORMAT.md#the-tree).
		assertThat(node(tree, "selfish1").get("parentId").isNull()).isTrue();
		assertThat(strings(node(tree, "selfish1").get("childIds"))).isEmpty();
	}

	@Test
	void getTreeShouldResolveLabelsByReplayingLabelEntriesLastWriteWins() {
		String sessionId = importSession(user("aaaa0001", null, 1, "one"), assistant("aaaa0002", "aaaa0001", 2, "two"),
				label("lab00001", "aaaa0002", 3, "aaaa0001", "first name"),
				label("lab00002", "lab00001", 4, "aaaa0002", "doomed"),
				label("lab00003", "lab00002", 5, "aaaa0001", "second name"),
				entry("label", "lab00004", "lab00003", 6, "'targetId':'aaaa0002'"),
				label("lab00005", "lab00004", 7, "nowhere1", "on nothing"));
		JsonNode tree = getTree(sessionId, "lab00005");
		assertThat(node(tree, "aaaa0001").get("label").asString()).isEqualTo("second name");
		assertThat(node(tree, "aaaa0002").get("label").isNull()).isTrue();
		// Label entries are nodes like any other; one on an unknown target shows nowhere
		// (docs/SESSION-FORMAT.md#labels-compactions-branch-summaries-models-and-thinking-levels).
		assertThat(nodeIds(tree)).hasSize(7).doesNotContain("nowhere1");
		Map<String, String> labelled = new LinkedHashMap<>();
		tree.get("nodes").forEach(node -> {
			if (!node.get("label").isNull()) {
				labelled.put(node.get("id").asString(), node.get("label").asString());
			}
		});
		assertThat(labelled).containsExactly(Map.entry("aaaa0001", "second name"));
	}

	@Test
	void getTreeWhenSessionIsEmptyShouldAnswerNoNodesWithRootAsETag() {
		String sessionId = ApiSessions.create(this.client);
		this.client.get()
			.uri("/sessions/{id}/tree", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("{\"leafId\":null,\"rootIds\":[],\"nodes\":[]}", JsonCompareMode.STRICT);
	}

	@Test
	void getTreeOfTheOmpFixtureShouldHaveEveryEntryAsOneChain() {
		importOmpFixture();
		JsonNode tree = getTree(OMP_ID, OMP_LEAF);
		assertThat(tree.get("nodes")).hasSize(1019);
		assertThat(strings(tree.get("rootIds"))).containsExactly("663c75f5");
		assertThat(new HashSet<>(nodeIds(tree))).hasSize(1019);
		List<String> ids = nodeIds(tree);
		for (int i = 0; i < ids.size(); i++) {
			JsonNode node = tree.get("nodes").get(i);
			List<String> expectedChildren = (i + 1 < ids.size()) ? List.of(ids.get(i + 1)) : List.of();
			assertThat(strings(node.get("childIds"))).as("children of %s", ids.get(i)).isEqualTo(expectedChildren);
		}
		assertThat(node(tree, "c94944ed").get("type").asString()).isEqualTo("model_change");
		assertThat(node(tree, OMP_LEAF).get("type").asString()).isEqualTo("custom");
	}

	@Test
	void getTreeOfTheOmpTestSessionShouldShowItsBranchesAndResolvedLabels() {
		importOmpTestSession();
		JsonNode tree = getTree(TestSessions.SESSION_ID, TEST_SESSION_LEAF);
		assertThat(tree.get("nodes")).hasSize(132);
		assertThat(strings(tree.get("rootIds"))).containsExactly("51375eee");
		assertThat(strings(node(tree, "cde59dff").get("childIds"))).containsExactly("46123e84", "653bc9e4");
		assertThat(strings(node(tree, "ae9ecf53").get("childIds"))).containsExactly("28268b75", "3058d46d");
		assertThat(strings(node(tree, "98abed60").get("childIds"))).containsExactly("4af4f4ce", "39f892bc");
		assertThat(node(tree, "653bc9e4").get("type").asString()).isEqualTo("branch_summary");
		assertThat(node(tree, "3058d46d").get("label").asString()).isEqualTo("self-link");
		assertThat(node(tree, "b58b03f2").get("label").isNull()).isTrue(); // labelled, then cleared
	}

	@Test
	void getTreeWhenSessionIsUnknownShouldReturn404() {
		JsonNode problem = ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree", "no-such-session").exchange(),
				HttpStatus.NOT_FOUND, "session-not-found");
		assertThat(problem.get("sessionId").asString()).isEqualTo("no-such-session");
	}

	@Test
	void getTreeWhenSessionIdIsNoIdShouldReturn400() {
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree", "-bad").exchange(), HttpStatus.BAD_REQUEST, "invalid-id");
	}

	// getTreeRows: filters (docs/SESSION-FORMAT.md#the-selector-rows)

	@Test
	void getTreeRowsWithoutFilterShouldUseDefaultAndHideBookkeepingEntries() {
		String sessionId = selectorSession();
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows");
		assertThat(rows.get("filter").asString()).isEqualTo("default");
		assertThat(rows.get("q").isNull()).isTrue();
		assertThat(rows.get("total").asInt()).isEqualTo(11);
		assertThat(rows.get("matched").asInt()).isEqualTo(7);
		assertThat(rows.get("nextCursor").isNull()).isTrue();
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "a1:1", "r1:2", "u2:2", "a3:2", "b1:1", "b2:2");
	}

	@Test
	void getTreeRowsWithFilterAllShouldShowEveryEntryButTheToolCallOnlyAssistantMessage() {
		String sessionId = selectorSession();
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows?filter=all");
		assertThat(rows.get("filter").asString()).isEqualTo("all");
		assertThat(rows.get("total").asInt()).isEqualTo(11);
		assertThat(rows.get("matched").asInt()).isEqualTo(10);
		// The leaf's branch first although its first entry (a1) is later than b1. u1 has two children, so both hang
		// from connectors, and the first row after each goes one column further in; the chain below stays there.
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "a1:1", "r1:2", "m1:2", "th:2", "u2:2", "a3:2", "l1:2",
				"b1:1", "b2:2");
		assertThat(row(rows, "a1").get("connector").asString()).isEqualTo("branch");
		assertThat(row(rows, "b1").get("connector").asString()).isEqualTo("last");
		assertThat(row(rows, "r1").get("connector").isNull()).isTrue();
		assertThat(strings(row(rows, "u2").get("guides"))).containsExactly("0");
		assertThat(strings(row(rows, "b2").get("guides"))).isEmpty();
		assertThat(row(rows, "u1").get("childCount").asInt()).isEqualTo(2);
		// parentId is the tree's parent, even when that entry is not a row; visibleParentId the row it hangs from.
		assertThat(row(rows, "r1").get("parentId").asString()).isEqualTo("a2");
		assertThat(row(rows, "r1").get("visibleParentId").asString()).isEqualTo("a1");
		assertThat(row(rows, "u1").get("parentId").isNull()).isTrue();
	}

	@Test
	void getTreeRowsWithFilterNoToolsShouldAlsoHideToolResults() {
		JsonNode rows = getRows(selectorSession(), "/sessions/{id}/tree/rows?filter=no-tools");
		assertThat(rows.get("matched").asInt()).isEqualTo(6);
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "a1:1", "u2:2", "a3:2", "b1:1", "b2:2");
	}

	@Test
	void getTreeRowsWithFilterUserOnlyShouldShowOnlyUserMessages() {
		JsonNode rows = getRows(selectorSession(), "/sessions/{id}/tree/rows?filter=user-only");
		assertThat(rows.get("total").asInt()).isEqualTo(11);
		assertThat(rows.get("matched").asInt()).isEqualTo(3);
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "u2:1", "b1:1");
		rows.get("rows").forEach(row -> assertThat(row.get("role").asString()).isEqualTo("user"));
	}

	@Test
	void getTreeRowsWithFilterLabeledOnlyShouldShowOnlyLabelledEntries() {
		JsonNode rows = getRows(selectorSession(), "/sessions/{id}/tree/rows?filter=labeled-only");
		assertThat(rows.get("matched").asInt()).isEqualTo(1);
		assertThat(idsAndDepths(rows)).containsExactly("u2:0");
		assertThat(row(rows, "u2").get("label").asString()).isEqualTo("checkpoint");
	}

	@Test
	void getTreeRowsShouldDescribeEachRow() {
		JsonNode rows = getRows(selectorSession(), "/sessions/{id}/tree/rows?filter=all");
		JsonNode user = row(rows, "u2");
		assertThat(user.get("type").asString()).isEqualTo("message");
		assertThat(user.get("role").asString()).isEqualTo("user");
		// The text is what upstream's selector writes after the label (docs/SESSION-FORMAT.md#the-selector-rows).
		assertThat(user.get("text").asString()).isEqualTo("user: Now write tests for the loader");
		assertThat(user.get("label").asString()).isEqualTo("checkpoint");
		JsonNode thinking = row(rows, "th");
		assertThat(thinking.get("type").asString()).isEqualTo("thinking_level_change");
		assertThat(thinking.get("role").isNull()).isTrue();
		assertThat(thinking.get("text").asString()).isEqualTo("[thinking: high]");
		// A tool result is named by the call it answers, oh-my-pi's model change by its model.
		assertThat(row(rows, "r1").get("text").asString()).isEqualTo("[read: src/loader.ts]");
		assertThat(row(rows, "m1").get("text").asString()).isEqualTo("[model: anthropic/claude-opus-4-5]");
		// An assistant message without text that stopped with an error shows
		// (docs/SESSION-FORMAT.md#the-selector-rows), with its error as preview.
		assertThat(row(rows, "b2").get("text").asString()).isEqualTo("assistant: Overloaded");
		assertThat(row(rows, "r1").get("role").asString()).isEqualTo("toolResult");
	}

	@Test
	void getTreeRowsShouldFlagTheActivePathAndTheLeaf() {
		JsonNode rows = getRows(selectorSession(), "/sessions/{id}/tree/rows?filter=all");
		List<String> active = new ArrayList<>();
		List<String> leaves = new ArrayList<>();
		rows.get("rows").forEach(row -> {
			if (row.get("onActivePath").asBoolean()) {
				active.add(row.get("id").asString());
			}
			if (row.get("isLeaf").asBoolean()) {
				leaves.add(row.get("id").asString());
			}
		});
		assertThat(active).containsExactly("u1", "a1", "r1", "m1", "th", "u2", "a3", "l1");
		assertThat(leaves).containsExactly("l1");
	}

	@Test
	void getTreeRowsWithFoldedShouldLeaveOutTheRowsBelowEachFoldedEntry() {
		String sessionId = selectorSession();
		// u1 branches into b1 (b2 below) and a1 (a3 below, the leaf's branch first); b1 and the hidden a2 fold
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows?filter=no-tools&folded={folded}", "l1", "b1,a2,nosuchid");
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "a1:1", "b1:1");
		assertThat(row(rows, "b1").get("folded").asBoolean()).isTrue();
		assertThat(row(rows, "a1").get("folded").asBoolean()).isFalse();
		// the leaf is below a2's fold: the selection walks up to a1
		assertThat(rows.get("selectedId").asString()).isEqualTo("a1");
		assertThat(getRows(sessionId, "/sessions/{id}/tree/rows?filter=no-tools", "l1").get("matched").asInt()).isEqualTo(6);
	}

	@Test
	void getTreeRowsWhenLeafMovesShouldPutItsBranchFirst() {
		String sessionId = selectorSession();
		ApiSessions.moveLeaf(this.client, sessionId, "b2");
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows?filter=no-tools", "b2");
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "b1:1", "b2:2", "a1:1", "u2:2", "a3:2");
		assertThat(row(rows, "b2").get("isLeaf").asBoolean()).isTrue();
		assertThat(row(rows, "b1").get("onActivePath").asBoolean()).isTrue();
		assertThat(row(rows, "a1").get("onActivePath").asBoolean()).isFalse();
	}

	@Test
	void getTreeRowsWhenLeafIsAToolCallOnlyAssistantMessageShouldShowItUntilTheLeafMoves() {
		String sessionId = importSession(user("u1", null, 1, "read the loader"),
				entry("message", "a1", "u1", 2, "'message':{'role':'assistant','content':[" + TOOL_CALL
						+ "],'stopReason':'toolUse','timestamp':" + millis(2) + "}"));
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows", "a1");
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "a1:0");
		assertThat(row(rows, "a1").get("isLeaf").asBoolean()).isTrue();
		assertThat(row(rows, "a1").get("text").asString()).isEqualTo("assistant: (no content)");
		ApiSessions.moveLeaf(this.client, sessionId, "u1");
		assertThat(idsAndDepths(getRows(sessionId, "/sessions/{id}/tree/rows?filter=all", "u1"))).containsExactly("u1:0");
	}

	@Test
	void getTreeRowsWhenSeveralRootsShouldListTheLeafsRootFirst() {
		String sessionId = importSession(user("root0001", null, 1, "first root"), assistant("kid00001", "root0001", 2, "reply"),
				user("root0002", null, 3, "second root"), user("root0003", null, 4, "third root"));
		ApiSessions.moveLeaf(this.client, sessionId, "root0002");
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows", "root0002");
		assertThat(idsAndDepths(rows)).containsExactly("root0002:0", "root0001:0", "kid00001:1", "root0003:0");
	}

	@Test
	void getTreeRowsWhenLeafIsResetShouldMarkNoRowActiveWithRootAsETag() {
		String sessionId = selectorSession();
		this.client.put()
			.uri("/sessions/{id}/leaf", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"entryId\":null}")
			.exchange()
			.expectStatus()
			.isOk();
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows?filter=no-tools", "root");
		// No leaf's branch to put first: children in timestamp order, so b1 (2 s) before a1 (4 s).
		assertThat(idsAndDepths(rows)).containsExactly("u1:0", "b1:1", "b2:2", "a1:1", "u2:2", "a3:2");
		rows.get("rows").forEach(row -> {
			assertThat(row.get("onActivePath").asBoolean()).isFalse();
			assertThat(row.get("isLeaf").asBoolean()).isFalse();
		});
	}

	// getTreeRows: search (docs/SESSION-FORMAT.md#the-selector-rows)

	@Test
	void getTreeRowsWithSearchShouldRequireEveryTokenAndEchoTheQuery() {
		String sessionId = selectorSession();
		JsonNode rows = getRows(sessionId, "/sessions/{id}/tree/rows?q={q}", "l1", "loader tests");
		assertThat(rows.get("q").asString()).isEqualTo("loader tests");
		assertThat(rows.get("total").asInt()).isEqualTo(11);
		assertThat(rows.get("matched").asInt()).isEqualTo(1);
		// u1 and r1 hold "loader" but not "tests"; the only match has no shown ancestor, so it is at depth 0.
		assertThat(idsAndDepths(rows)).containsExactly("u2:0");
	}

	@Test
	void getTreeRowsWithSearchShouldIgnoreCase() {
		JsonNode rows = getRows(selectorSession(), "/sessions/{id}/tree/rows?q={q}", "l1", "CONFIG  Env");
		assertThat(ids(rows)).containsExactly("u1");
	}

	@Test
	void getTreeRowsWithSearchShouldMatchEachTokenAsASubstring() {
		String sessionId = selectorSession();
		assertThat(ids(getRows(sessionId, "/sessions/{id}/tree/rows?q={q}", "l1", "CONFIG"))).containsExactly("u1", "a1");
		assertThat(ids(getRows(sessionId, "/sessions/{id}/tree/rows?q={q}", "l1", "onfi rea"))).containsExactly("u1", "a1");
		// c, f and g stand in this order in "config", but upstream's search wants them side by side.
		JsonNode none = getRows(sessionId, "/sessions/{id}/tree/rows?q={q}", "l1", "cfg");
		assertThat(none.get("matched").asInt()).isZero();
		assertThat(none.get("rows")).isEmpty();
	}

	@Test
	void getTreeRowsWithSearchShouldLookAtRolesLabelsAndTypeKeywords() {
		String sessionId = selectorSession();
		assertThat(ids(getRows(sessionId, "/sessions/{id}/tree/rows?q={q}", "l1", "assistant"))).containsExactly("a1", "a3",
				"b2");
		assertThat(ids(getRows(sessionId, "/sessions/{id}/tree/rows?q={q}", "l1", "checkpoint"))).containsExactly("u2");
		assertThat(ids(getRows(sessionId, "/sessions/{id}/tree/rows?filter=all&q={q}", "l1", "checkpoint")))
			.containsExactly("u2", "l1");
		assertThat(ids(getRows(sessionId, "/sessions/{id}/tree/rows?filter=all&q={q}", "l1", "model opus")))
			.containsExactly("m1");
		assertThat(ids(getRows(sessionId, "/sessions/{id}/tree/rows?filter=all&q={q}", "l1", "thinking high")))
			.containsExactly("th");
	}

	// getTreeRows: paging

	@Test
	void getTreeRowsWithLimitShouldPageThroughEveryRowOnce() {
		String sessionId = selectorSession();
		List<String> seen = new ArrayList<>();
		List<Integer> pageSizes = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode page = getRows(sessionId,
					"/sessions/{id}/tree/rows?filter=all&limit=3" + ((cursor != null) ? "&cursor=" + cursor : ""));
			assertThat(page.get("total").asInt()).isEqualTo(11);
			assertThat(page.get("matched").asInt()).isEqualTo(10);
			List<String> ids = ids(page);
			pageSizes.add(ids.size());
			seen.addAll(ids);
			cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
			if (cursor != null) {
				assertThat(cursor).isEqualTo(ids.get(ids.size() - 1));
			}
		}
		while (cursor != null);
		assertThat(pageSizes).containsExactly(3, 3, 3, 1);
		assertThat(seen).containsExactly("u1", "a1", "r1", "m1", "th", "u2", "a3", "l1", "b1", "b2");
	}

	@Test
	void getTreeRowsWhenLimitEqualsTheRowsShouldGiveNoNextCursor() {
		JsonNode rows = getRows(selectorSession(), "/sessions/{id}/tree/rows?filter=user-only&limit=3");
		assertThat(ids(rows)).hasSize(3);
		assertThat(rows.get("nextCursor").isNull()).isTrue();
	}

	// getTreeRows: errors

	@Test
	void getTreeRowsWhenFilterIsUnknownShouldReturn400ListingTheFilters() {
		String sessionId = selectorSession();
		JsonNode problem = ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/rows?filter=tools-only", sessionId).exchange(),
				HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(problem.get("detail").asString()).contains("tools-only")
			.contains("default", "no-tools", "user-only", "labeled-only", "all");
		assertThat(problem.get("parameter").asString()).isEqualTo("filter");
	}

	@Test
	void getTreeRowsWhenFilterIsAnEnumConstantShouldReturn400() {
		String sessionId = selectorSession();
		for (String constant : new String[] { "ALL", "NO_TOOLS", "Default" }) {
			ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/rows?filter={filter}", sessionId, constant).exchange(),
					HttpStatus.BAD_REQUEST, "invalid-parameter");
		}
	}

	@Test
	void getTreeRowsWhenCursorNamesNoRowShouldReturn400() {
		String sessionId = selectorSession();
		JsonNode problem = ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/rows?cursor=nope", sessionId).exchange(),
				HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(problem.get("parameter").asString()).isEqualTo("cursor");
		// m1 is an entry, but no row of the default view.
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/rows?cursor=m1", sessionId).exchange(), HttpStatus.BAD_REQUEST,
				"invalid-parameter");
	}

	@Test
	void getTreeRowsWhenLimitIsOutOfRangeShouldReturn400() {
		String sessionId = selectorSession();
		JsonNode zero = ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/rows?limit=0", sessionId).exchange(),
				HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(zero.get("parameter").asString()).isEqualTo("limit");
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/tree/rows?limit=many", sessionId).exchange(), HttpStatus.BAD_REQUEST,
				"invalid-parameter");
	}

	// getTreeRows: the omp fixture

	@Test
	void getTreeRowsOfTheOmpFixtureShouldCountRowsPerFilter() {
		importOmpFixture();
		// 1019 entries: 914 messages (88 user, 453 assistant of which 194 only call tools, 373 tool results),
		// 103 thinking level changes, 1 model change, 1 custom entry (the leaf).
		Map<String, Integer> expected = Map.of("all", 1019 - 194, "default", 914 - 194, "no-tools", 914 - 194 - 373,
				"user-only", 88, "labeled-only", 0);
		expected.forEach((filter, count) -> {
			JsonNode rows = getRows(OMP_ID, "/sessions/{id}/tree/rows?filter=" + filter + "&limit=10000", OMP_LEAF);
			assertThat(rows.get("total").asInt()).as(filter).isEqualTo(1019);
			assertThat(rows.get("matched").asInt()).as(filter).isEqualTo(count);
			assertThat(rows.get("rows")).as(filter).hasSize(count);
			assertThat(rows.get("nextCursor").isNull()).as(filter).isTrue();
		});
	}

	@Test
	void getTreeRowsOfTheOmpFixtureWithUserOnlyShouldGiveTheUserMessagesAsOneChain() {
		importOmpFixture();
		JsonNode rows = getRows(OMP_ID, "/sessions/{id}/tree/rows?filter=user-only", OMP_LEAF);
		assertThat(rows.get("rows")).hasSize(88);
		for (int i = 0; i < 88; i++) {
			JsonNode row = rows.get("rows").get(i);
			assertThat(row.get("role").asString()).isEqualTo("user");
			// One chain: drawn flat, as upstream draws it.
			assertThat(row.get("depth").asInt()).isZero();
			assertThat(row.get("onActivePath").asBoolean()).isTrue();
			assertThat(row.get("isLeaf").asBoolean()).isFalse();
			// upstream's first 200 characters of the message, after its role
			assertThat(row.get("text").asString()).startsWith("user: ").hasSizeLessThanOrEqualTo(206);
		}
		assertThat(rows.get("rows").get(0).get("id").asString()).isEqualTo("663c75f5");
		assertThat(rows.get("rows").get(0).get("text").asString()).isEqualTo("user: /mode");
	}

	@Test
	void getTreeRowsOfTheOmpFixtureWithAllShouldEndAtTheLeafAndPageThroughEveryRowOnce() {
		importOmpFixture();
		List<String> seen = new ArrayList<>();
		JsonNode last = null;
		String cursor = null;
		do {
			JsonNode page = getRows(OMP_ID,
					"/sessions/{id}/tree/rows?filter=all&limit=100" + ((cursor != null) ? "&cursor=" + cursor : ""),
					OMP_LEAF);
			for (JsonNode row : page.get("rows")) {
				// One chain: drawn flat, each row the child of the row before it.
				assertThat(row.get("depth").asInt()).isZero();
				assertThat(row.get("visibleParentId").isNull() ? null : row.get("visibleParentId").asString())
					.isEqualTo(seen.isEmpty() ? null : seen.get(seen.size() - 1));
				assertThat(row.get("onActivePath").asBoolean()).isTrue();
				seen.add(row.get("id").asString());
				last = row;
			}
			cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
		}
		while (cursor != null);
		assertThat(seen).hasSize(825).doesNotHaveDuplicates();
		assertThat(last.get("id").asString()).isEqualTo(OMP_LEAF);
		assertThat(last.get("isLeaf").asBoolean()).isTrue();
		// The first assistant message has no text but was aborted, so it shows.
		assertThat(seen).startsWith("663c75f5", "19e7dd4e", "c94944ed");
	}

	@Test
	void getTreeRowsOfTheOmpTestSessionWithLabeledOnlyShouldGiveTheLabeledEntriesOfThePath() {
		importOmpTestSession();
		JsonNode rows = getRows(TestSessions.SESSION_ID, "/sessions/{id}/tree/rows?filter=labeled-only",
				TEST_SESSION_LEAF);
		assertThat(rows.get("total").asInt()).isEqualTo(132);
		assertThat(ids(rows)).containsExactly("3058d46d", "45ad1d5b");
		assertThat(rows.get("rows").get(1).get("label").asString()).isEqualTo("done");
	}

	// Sessions

	/**
	 * The selector's test session. File order is the order the user worked in: a side branch first (b1, b2, the
	 * answer failed), then back at u1 the main branch, which ends in a label entry, the leaf. On the main branch a2
	 * only calls a tool (hidden in every view), m1 and th change state, and the label names u2 "checkpoint".
	 */
	private String selectorSession() {
		return importSession(user("u1", null, 1, "Make the config loader read env vars"),
				user("b1", "u1", 2, "Try another approach"),
				entry("message", "b2", "b1", 3, "'message':{'role':'assistant','content':[],'stopReason':'error',"
						+ "'errorMessage':'Overloaded','timestamp':" + millis(3) + "}"),
				assistant("a1", "u1", 4, "I will read the config file first"),
				entry("message", "a2", "a1", 5, "'message':{'role':'assistant','content':[" + TOOL_CALL
						+ "],'stopReason':'toolUse','timestamp':" + millis(5) + "}"),
				entry("message", "r1", "a2", 6, "'message':{'role':'toolResult','toolCallId':'call1','toolName':'read',"
						+ "'content':[{'type':'text','text':'export const loader = 1'}],'isError':false,'timestamp':"
						+ millis(6) + "}"),
				entry("model_change", "m1", "r1", 7, "'model':'anthropic/claude-opus-4-5'"),
				entry("thinking_level_change", "th", "m1", 8, "'thinkingLevel':'high'"),
				user("u2", "th", 9, "Now write tests for the loader"), assistant("a3", "u2", 10, "Tests written"),
				label("l1", "a3", 11, "u2", "checkpoint"));
	}

	/** Imports a session file: a header with a fresh id, then the entries (JSON with single quotes). */
	private String importSession(String... entries) {
		String sessionId = "tree-" + UUID.randomUUID();
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

	/** The omp fixture, imported unchanged once per store; tests only read it. */
	private void importOmpFixture() {
		ApiSessions.importOnce(this.client, OMP_ID, Fixtures.bytes(Fixtures.OMP_V3));
	}

	/** The omp test session, imported unchanged once per store; tests only read it. */
	private void importOmpTestSession() {
		ApiSessions.importOnce(this.client, TestSessions.SESSION_ID, TestSessions.bytes(TestSessions.OMP_V3));
	}

	// Requests

	/** The tree, checking the status and that {@code ETag} is the leaf. */
	private JsonNode getTree(String sessionId, String leafId) {
		return ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/tree", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + leafId + "\""));
	}

	/** Rows of the selector session, whose leaf is {@code l1}. */
	private JsonNode getRows(String sessionId, String uri) {
		return getRows(sessionId, uri, "l1");
	}

	/**
	 * Rows, checking the status and that {@code ETag} is the leaf ({@code root} for none); {@code q} fills a
	 * {@code {q}} in the uri.
	 */
	private JsonNode getRows(String sessionId, String uri, String leafId, Object... q) {
		Object[] variables = new Object[1 + q.length];
		variables[0] = sessionId;
		System.arraycopy(q, 0, variables, 1, q.length);
		return ApiSessions.body(this.client.get()
			.uri(uri, variables)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + leafId + "\""));
	}

	// Reading answers

	private static List<String> nodeIds(JsonNode tree) {
		List<String> ids = new ArrayList<>();
		tree.get("nodes").forEach(node -> ids.add(node.get("id").asString()));
		return ids;
	}

	private static JsonNode node(JsonNode tree, String id) {
		for (JsonNode node : tree.get("nodes")) {
			if (node.get("id").asString().equals(id)) {
				return node;
			}
		}
		throw new AssertionError("No node " + id + " in " + tree);
	}

	private static List<String> ids(JsonNode rows) {
		List<String> ids = new ArrayList<>();
		rows.get("rows").forEach(row -> ids.add(row.get("id").asString()));
		return ids;
	}

	/** Each row as {@code id:depth}, which shows the order and the shape at once. */
	private static List<String> idsAndDepths(JsonNode rows) {
		List<String> rowsAndDepths = new ArrayList<>();
		rows.get("rows").forEach(row -> rowsAndDepths.add(row.get("id").asString() + ":" + row.get("depth").asInt()));
		return rowsAndDepths;
	}

	private static JsonNode row(JsonNode rows, String id) {
		for (JsonNode row : rows.get("rows")) {
			if (row.get("id").asString().equals(id)) {
				return row;
			}
		}
		throw new AssertionError("No row " + id + " in " + rows);
	}

	private static List<String> strings(JsonNode array) {
		List<String> strings = new ArrayList<>();
		array.forEach(element -> strings.add(element.asString()));
		return strings;
	}

	// Entries, written as JSON with single quotes

	private static String entry(String type, String id, @Nullable String parentId, int second, String fields) {
		return "{'type':'" + type + "','id':'" + id + "','parentId':" + ((parentId != null) ? "'" + parentId + "'" : "null")
				+ ",'timestamp':'" + at(second) + "'" + (fields.isEmpty() ? "" : "," + fields) + "}";
	}

	private static String user(String id, @Nullable String parentId, int second, String text) {
		return entry("message", id, parentId, second,
				"'message':{'role':'user','content':[{'type':'text','text':'" + text + "'}],'timestamp':" + millis(second) + "}");
	}

	private static String assistant(String id, @Nullable String parentId, int second, String text) {
		return entry("message", id, parentId, second, "'message':{'role':'assistant','content':[{'type':'text','text':'"
				+ text + "'}],'provider':'anthropic','model':'claude-sonnet-4-5','stopReason':'stop','timestamp':"
				+ millis(second) + "}");
	}

	private static String label(String id, String parentId, int second, String targetId, String label) {
		return entry("label", id, parentId, second, "'targetId':'" + targetId + "','label':'" + label + "'");
	}

	/** The stored timestamp {@code second} seconds into 2025. */
	private static String at(int second) {
		return String.format("2025-01-01T00:%02d:%02d.000Z", second / 60, second % 60);
	}

	private static long millis(int second) {
		return 1735689600000L + second * 1000L;
	}

}

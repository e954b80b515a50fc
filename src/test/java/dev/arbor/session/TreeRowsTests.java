package dev.arbor.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.arbor.Fixtures;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The selector view of docs/SESSION-FORMAT.md#the-selector-rows: row order, filters, hidden tool-call-only assistant
 * messages, search, previews, and the real oh-my-pi fixture.
 */
class TreeRowsTests {

	private static final Instant START = Instant.parse("2025-01-01T00:00:00Z");

	private static final SessionHeader HEADER = SessionHeader.create("s1", START, "/work", null, null);

	private static final String TOOL_CALL = "{'type':'toolCall','id':'call1','name':'read',"
			+ "'arguments':{'path':'a.txt'}}";

	@Test
	void defaultFilterWhenChainHoldsBookkeepingEntriesShouldHideThemAndDrawTheChainFlat() {
		SessionTree tree = tree(user("u1", null, 1, "hello"),
				entry("model_change", "mc", "u1", 2, "'model':'anthropic/claude-sonnet-4-5'"),
				entry("thinking_level_change", "tl", "mc", 3, "'thinkingLevel':'high'"),
				assistant("a1", "tl", 4, "hi there"), entry("custom", "c1", "a1", 5, "'customType':'ext'"),
				entry("mode_change", "mo", "c1", 6, "'mode':'plan'"),
				entry("label", "lb", "mo", 7, "'targetId':'u1','label':'start'"), user("u2", "lb", 8, "next"));

		TreeRows rows = tree.getTreeRows(RowFilter.DEFAULT, null);

		assertThat(ids(rows)).containsExactly("u1", "a1", "u2");
		assertThat(depths(rows)).containsOnly(0);
		assertThat(rows.total()).isEqualTo(8);
		assertThat(rows.matched()).isEqualTo(3);
		assertThat(rows.filter()).isEqualTo(RowFilter.DEFAULT);
		assertThat(all(rows).get(0).label()).isEqualTo("start");
		assertThat(all(rows).get(2).parentId()).isEqualTo("lb");
	}

	@Test
	void allFilterShouldShowEveryEntryInChainOrder() {
		SessionTree tree = tree(user("u1", null, 1, "hello"),
				entry("model_change", "mc", "u1", 2, "'model':'anthropic/claude-sonnet-4-5'"),
				entry("thinking_level_change", "tl", "mc", 3, "'thinkingLevel':'high'"),
				assistant("a1", "tl", 4, "hi there"), entry("session_init", "si", "a1", 5, "'x':1"),
				entry("label", "lb", "si", 6, "'targetId':'u1','label':'start'"));

		TreeRows rows = tree.getTreeRows(RowFilter.ALL, null);

		assertThat(ids(rows)).containsExactly("u1", "mc", "tl", "a1", "si", "lb");
		assertThat(depths(rows)).containsOnly(0);
		assertThat(rows.total()).isEqualTo(6);
		assertThat(rows.matched()).isEqualTo(6);
		assertThat(all(rows)).extracting(TreeRow::role).containsExactly("user", null, null, "assistant", null, null);
	}

	@Test
	void noToolsFilterShouldAlsoHideToolResults() {
		SessionTree tree = tree(user("u1", null, 1, "read it"), toolCallsWithText("a1", "u1", 2, "Reading it"),
				toolResult("t1", "a1", 3, "file contents"), assistant("a2", "t1", 4, "done"));

		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, null))).containsExactly("u1", "a1", "t1", "a2");
		TreeRows rows = tree.getTreeRows(RowFilter.NO_TOOLS, null);
		assertThat(ids(rows)).containsExactly("u1", "a1", "a2");
		assertThat(depths(rows)).containsOnly(0);
		assertThat(rows.total()).isEqualTo(4);
	}

	@Test
	void userOnlyFilterShouldShowOnlyUserMessages() {
		SessionTree tree = tree(user("u1", null, 1, "first"), assistant("a1", "u1", 2, "answer"),
				entry("custom_message", "cm", "a1", 3, "'customType':'note','content':'injected','display':true"),
				user("u2", "cm", 4, "second"), assistant("a2", "u2", 5, "answer two"));

		TreeRows rows = tree.getTreeRows(RowFilter.USER_ONLY, null);

		assertThat(ids(rows)).containsExactly("u1", "u2");
		assertThat(depths(rows)).containsOnly(0);
		assertThat(rows.total()).isEqualTo(5);
		assertThat(rows.matched()).isEqualTo(2);
	}

	@Test
	void labeledOnlyFilterShouldShowEntriesWhoseResolvedLabelIsSet() {
		SessionTree tree = tree(user("u1", null, 1, "first"), assistant("a1", "u1", 2, "answer"),
				user("u2", "a1", 3, "second"), entry("label", "l1", "u2", 4, "'targetId':'u1','label':'first'"),
				entry("label", "l2", "l1", 5, "'targetId':'a1','label':'answer'"),
				entry("label", "l3", "l2", 6, "'targetId':'a1','label':''"),
				entry("label", "l4", "l3", 7, "'targetId':'u2','label':'second'"));

		TreeRows rows = tree.getTreeRows(RowFilter.LABELED_ONLY, null);

		assertThat(ids(rows)).containsExactly("u1", "u2");
		assertThat(all(rows)).extracting(TreeRow::label).containsExactly("first", "second");
		assertThat(depths(rows)).containsOnly(0);
	}

	@Test
	void rowsWhenLeafIsOnOneBranchShouldListThatBranchFirstAndTheOthersByTimestamp() {
		SessionTree tree = tree(user("r", null, 1, "root"), user("b1", "r", 5, "one"), user("b2", "r", 3, "two"),
				user("b3", "r", 4, "three"), assistant("b3a", "b3", 6, "three answered"),
				assistant("b1a", "b1", 7, "one answered"));

		tree.branch("b1a");
		TreeRows onFirst = tree.getTreeRows(RowFilter.DEFAULT, null);
		tree.branch("b3a");
		TreeRows onThird = tree.getTreeRows(RowFilter.DEFAULT, null);

		assertThat(ids(onFirst)).containsExactly("r", "b1", "b1a", "b2", "b3", "b3a");
		assertThat(depths(onFirst)).containsExactly(0, 1, 2, 1, 1, 2);
		assertThat(all(onFirst)).extracting(TreeRow::connector)
			.containsExactly(null, TreeRow.Connector.BRANCH, null, TreeRow.Connector.BRANCH, TreeRow.Connector.LAST, null);
		assertThat(all(onFirst)).extracting(TreeRow::guides)
			.containsExactly(List.of(), List.of(), List.of(0), List.of(), List.of(), List.of());
		assertThat(all(onFirst)).extracting(TreeRow::childCount).containsExactly(3, 1, 0, 0, 1, 0);
		assertThat(all(onFirst)).extracting(TreeRow::selected).containsExactly(false, false, true, false, false, false);
		assertThat(all(onFirst)).extracting(TreeRow::onActivePath)
			.containsExactly(true, true, true, false, false, false);
		assertThat(all(onFirst)).extracting(TreeRow::isLeaf).containsExactly(false, false, true, false, false, false);
		assertThat(ids(onThird)).containsExactly("r", "b3", "b3a", "b2", "b1", "b1a");
		assertThat(all(onThird)).extracting(TreeRow::parentId).containsExactly(null, "r", "b3", "r", "r", "b1");
	}

	@Test
	void rowsWhenSeveralRootsShouldListTheLeafsRootFirstAndTheOthersInFileOrder() {
		SessionTree tree = tree(user("x", null, 1, "x"), assistant("xa", "x", 2, "xa"), user("y", null, 3, "y"),
				assistant("ya", "y", 4, "ya"), user("z", null, 5, "z"), assistant("za", "z", 6, "za"));

		tree.branch("ya");
		TreeRows rows = tree.getTreeRows(RowFilter.DEFAULT, null);

		assertThat(ids(rows)).containsExactly("y", "ya", "x", "xa", "z", "za");
		assertThat(depths(rows)).containsExactly(0, 1, 0, 1, 0, 1);
	}

	@Test
	void rowsWhenLeafIsResetShouldMarkNoActivePathAndKeepTimestampOrder() {
		SessionTree tree = tree(user("r", null, 1, "root"), user("b1", "r", 5, "one"), user("b2", "r", 3, "two"));

		tree.resetLeaf();
		TreeRows rows = tree.getTreeRows(RowFilter.DEFAULT, null);

		assertThat(ids(rows)).containsExactly("r", "b2", "b1");
		assertThat(all(rows)).extracting(TreeRow::onActivePath).containsOnly(false);
		assertThat(all(rows)).extracting(TreeRow::isLeaf).containsOnly(false);
	}

	@Test
	void toolCallOnlyAssistantWhenNotLeafShouldBeHiddenInEveryFilter() {
		SessionTree tree = tree(user("u1", null, 1, "go"), toolCalls("a1", "u1", 2, "toolUse"),
				toolResult("t1", "a1", 3, "output"), thinkingOnly("a2", "t1", 4), blankText("a3", "a2", 5),
				assistant("a4", "a3", 6, "finished"), entry("label", "l1", "a4", 7, "'targetId':'a1','label':'calls'"));

		TreeRows all = tree.getTreeRows(RowFilter.ALL, null);

		assertThat(ids(all)).containsExactly("u1", "t1", "a4", "l1");
		assertThat(depths(all)).containsOnly(0);
		assertThat(all.total()).isEqualTo(7);
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, null))).containsExactly("u1", "t1", "a4");
		assertThat(ids(tree.getTreeRows(RowFilter.NO_TOOLS, null))).containsExactly("u1", "a4");
		assertThat(all(tree.getTreeRows(RowFilter.LABELED_ONLY, null))).isEmpty();
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "read"))).isEmpty();
	}

	@Test
	void toolCallOnlyAssistantWhenLeafShouldBeShown() {
		SessionTree tree = tree(user("u1", null, 1, "go"), toolCalls("a1", "u1", 2, "toolUse"));

		TreeRows rows = tree.getTreeRows(RowFilter.DEFAULT, null);

		assertThat(ids(rows)).containsExactly("u1", "a1");
		assertThat(all(rows).get(1).isLeaf()).isTrue();
		assertThat(all(rows).get(1).text()).isEqualTo("assistant: (no content)");
	}

	@Test
	void toolCallOnlyAssistantWhenStoppedWithErrorOrAbortShouldBeShown() {
		SessionTree tree = tree(user("u1", null, 1, "go"),
				message("a1", "u1", 2, "'role':'assistant','content':[" + TOOL_CALL
						+ "],'stopReason':'error','errorMessage':'Overloaded\\nretry later'"),
				message("a2", "a1", 3, "'role':'assistant','content':[" + TOOL_CALL + "],'stopReason':'aborted'"),
				message("a3", "a2", 4, "'role':'assistant','content':[],'stopReason':'aborted'"),
				message("a4", "a3", 5, "'role':'assistant','content':[" + TOOL_CALL + "],'stopReason':'length'"),
				message("a5", "a4", 6, "'role':'assistant','content':[],'stopReason':'error','errorMessage':'"
						+ "x".repeat(90) + "'"),
				user("u2", "a5", 7, "again"));

		TreeRows rows = tree.getTreeRows(RowFilter.DEFAULT, null);

		// Upstream shows an assistant that stopped for any reason besides stop and toolUse, and cuts its error at 80.
		assertThat(ids(rows)).containsExactly("u1", "a1", "a2", "a3", "a4", "a5", "u2");
		assertThat(all(rows)).extracting(TreeRow::text)
			.containsExactly("user: go", "assistant: Overloaded retry later", "assistant: (aborted)",
					"assistant: (aborted)", "assistant: (no content)", "assistant: " + "x".repeat(80), "user: again");
	}

	@Test
	void searchShouldRequireEveryTokenCaseInsensitively() {
		SessionTree tree = tree(user("u1", null, 1, "Fix the Config loader"), user("u2", "u1", 2, "fix the parser"),
				user("u3", "u2", 3, "config docs"));

		TreeRows both = tree.getTreeRows(RowFilter.DEFAULT, "fix CONFIG");
		TreeRows one = tree.getTreeRows(RowFilter.DEFAULT, "  config  ");

		assertThat(ids(both)).containsExactly("u1");
		assertThat(both.total()).isEqualTo(3);
		assertThat(both.matched()).isEqualTo(1);
		assertThat(ids(one)).containsExactly("u1", "u3");
		assertThat(depths(one)).containsOnly(0);
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, " \t "))).containsExactly("u1", "u2", "u3");
	}

	@Test
	void searchShouldMatchEachTokenAsASubstringOnly() {
		SessionTree tree = tree(user("u1", null, 1, "Fix the Config loader"), user("u2", "u1", 2, "fix the parser"),
				message("u3", "u2", 3, "'role':'user','content':[{'type':'text','text':'con'},{'type':'text','text':'fig'}]"));

		// Upstream's letters must stand together: cfg is no substring of config.
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "cfg"))).isEmpty();
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "fx prsr"))).isEmpty();
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "onfi"))).containsExactly("u1", "u3");
		// A token may run across words where the text has no whitespace between them, and the role is searched.
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "g\u00a0loader"))).containsExactly("u1");
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "user parser"))).containsExactly("u2");
	}

	@Test
	void searchShouldLookAtLabelsTypeKeywordsAndTheFieldsEachTypeLists() {
		SessionTree tree = tree(user("u1", null, 1, "start"),
				entry("thinking_level_change", "tl", "u1", 2, "'thinkingLevel':'high'"),
				entry("model_change", "mc", "tl", 3, "'provider':'anthropic','modelId':'claude-sonnet-4-5'"),
				entry("compaction", "cp", "mc", 4,
						"'summary':'secret summary','firstKeptEntryId':'u1','tokensBefore':1000"),
				entry("branch_summary", "bs", "cp", 5, "'fromId':'root','summary':'went elsewhere'"),
				message("bx", "bs", 6, "'role':'bashExecution','command':'npm test','output':'ok','exitCode':0"),
				entry("custom_message", "cm", "bx", 7,
						"'customType':'reminder','content':[{'type':'text','text':'drink water'}]"),
				entry("label", "lb", "cm", 8, "'targetId':'u1','label':'milestone'"));

		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "thinking high"))).containsExactly("tl");
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "model claude"))).containsExactly("mc");
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "compaction"))).containsExactly("cp");
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "secret"))).isEmpty();
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "branch elsewhere"))).containsExactly("bs");
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "npm"))).containsExactly("bx");
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "reminder water"))).containsExactly("cm");
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "milestone"))).containsExactly("u1", "lb");
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "milestone"))).containsExactly("u1");
		assertThat(ids(tree.getTreeRows(RowFilter.USER_ONLY, "start milestone"))).containsExactly("u1");
	}

	@Test
	void searchShouldSeeOnlyTheFirst200CharactersOfMessageText() {
		String text = "a".repeat(195) + " zebra";
		SessionTree tree = tree(user("u1", null, 1, text));

		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "zeb"))).containsExactly("u1");
		assertThat(ids(tree.getTreeRows(RowFilter.DEFAULT, "zebra"))).isEmpty();
	}

	@Test
	void textShouldBeWhatUpstreamsSelectorWrites() {
		SessionTree tree = tree(user("u1", null, 1, "line one\\nline\\ttwo  "), user("u2", "u1", 2, "b".repeat(300)),
				toolResult("t1", "u2", 3, "contents"),
				entry("custom_message", "cm", "t1", 4, "'customType':'note','content':'hello','display':true"),
				message("bx", "cm", 5, "'role':'bashExecution','command':'npm test','output':'ok'"),
				entry("branch_summary", "bs", "bx", 6, "'fromId':'root','summary':'went elsewhere'"),
				entry("model_change", "mc", "bs", 7, "'provider':'anthropic','modelId':'claude-sonnet-4-5'"),
				entry("model_change", "ms", "mc", 8, "'model':'openai/gpt-5','role':'smol'"),
				entry("thinking_level_change", "tl", "ms", 9, "'thinkingLevel':null"),
				entry("label", "lb", "tl", 10, "'targetId':'u1'"), entry("session_init", "si", "lb", 11, "'x':1"),
				entry("compaction", "cp", "si", 12, "'summary':'kept going','firstKeptEntryId':'u1','tokensBefore':5"));

		TreeRows rows = tree.getTreeRows(RowFilter.ALL, null);

		assertThat(all(rows)).extracting(TreeRow::text)
			.containsExactly("user: line one line two", "user: " + "b".repeat(200), "[read]", "[note]: hello",
					"[bash]: npm test", "[branch summary]: went elsewhere", "[model: claude-sonnet-4-5]",
					"[model: openai/gpt-5]", "[thinking: null]", "[label: (cleared)]", "", "[compaction: 0k tokens]");
	}

	@Test
	void toolResultShouldBeNamedByTheCallItAnswersInTheNearestAssistantAbove() {
		SessionTree tree = tree(user("u1", null, 1, "go"), toolCalls("a1", "u1", 2, "toolUse"),
				toolResult("t1", "a1", 3, "contents"),
				message("a2", "t1", 4, "'role':'assistant','content':[{'type':'toolCall','id':'call1','name':'bash',"
						+ "'arguments':{'command':'make'}}],'stopReason':'toolUse'"),
				toolResult("t2", "a2", 5, "built"),
				// a call the nearest assistant above did not make: upstream would find it only elsewhere in the tree
				message("a3", "t2", 6, "'role':'assistant','content':[{'type':'toolCall','id':'call9','name':'ls',"
						+ "'arguments':{}}],'stopReason':'toolUse'"),
				toolResult("t3", "a3", 7, "orphan"));

		TreeRows rows = tree.getTreeRows(RowFilter.ALL, null);

		// call1 twice: each result is named by the call of its own turn.
		assertThat(all(rows)).extracting(TreeRow::id, TreeRow::text)
			.containsExactly(tuple("u1", "user: go"), tuple("t1", "[read: a.txt]"), tuple("t2", "[bash: make]"),
					tuple("t3", "[read]"));
	}

	@Test
	void rowsWhenEntriesFormACycleShouldShowEveryEntryOnce() {
		SessionTree tree = tree(user("r", null, 1, "root"), user("x", "y", 2, "x"), user("y", "x", 3, "y"));

		TreeRows onCycle = tree.getTreeRows(RowFilter.DEFAULT, null);
		tree.branch("r");
		TreeRows onRoot = tree.getTreeRows(RowFilter.DEFAULT, null);

		// The leaf y walks up to x, where its walk would repeat: x is the leaf's root.
		assertThat(ids(onCycle)).containsExactly("x", "y", "r");
		assertThat(depths(onCycle)).containsExactly(0, 1, 0);
		assertThat(all(onCycle)).extracting(TreeRow::parentId).containsExactly(null, "x", null);
		assertThat(ids(onRoot)).containsExactly("r", "x", "y");
		assertThat(onRoot.total()).isEqualTo(3);
	}

	@Test
	void rowsWhenIdIsDuplicatedShouldShowTheLaterEntryOnly() {
		SessionTree tree = tree(user("u1", null, 1, "go"), assistant("a1", "u1", 2, "first"),
				assistant("a1", "u1", 3, "second"));

		TreeRows rows = tree.getTreeRows(RowFilter.ALL, null);

		assertThat(ids(rows)).containsExactly("u1", "a1");
		assertThat(all(rows).get(1).text()).isEqualTo("assistant: second");
		assertThat(rows.total()).isEqualTo(2);
	}

	@Test
	void rowsWhenChainIs100000EntriesDeepShouldFlattenItWithoutRecursionAndDrawItFlat() {
		List<EntryLine> entries = new ArrayList<>();
		for (int i = 0; i < 100_000; i++) {
			entries.add(user("e" + i, (i > 0) ? "e" + (i - 1) : null, i, "message " + i));
		}
		SessionTree tree = SessionTree.of(HEADER, null, entries);

		TreeRows rows = tree.getTreeRows(RowFilter.DEFAULT, "99999");

		assertThat(tree.getTreeRows(RowFilter.DEFAULT, null).matched()).isEqualTo(100_000);
		assertThat(ids(rows)).containsExactly("e99999");
		assertThat(all(rows).get(0).depth()).isZero();
		assertThat(all(rows).get(0).isLeaf()).isTrue();
		TreeRows all = tree.getTreeRows(RowFilter.ALL, null);
		assertThat(all(all).get(99_999).depth()).isZero();
	}

	@Test
	void fromNameWhenApiNameShouldGiveTheFilterAndOtherwiseFail() {
		assertThat(List.of("default", "no-tools", "user-only", "labeled-only", "all")).map(RowFilter::fromName)
			.containsExactly(RowFilter.DEFAULT, RowFilter.NO_TOOLS, RowFilter.USER_ONLY, RowFilter.LABELED_ONLY,
					RowFilter.ALL);
		assertThat(RowFilter.NO_TOOLS.apiName()).isEqualTo("no-tools");
		assertThatIllegalArgumentException().isThrownBy(() -> RowFilter.fromName("NO_TOOLS"))
			.withMessage("Unknown tree filter 'NO_TOOLS': "
					+ "expected one of default, no-tools, user-only, labeled-only, all");
	}

	// Counts below were taken from the file independently, with a Python script over its JSON.

	@Test
	void fixtureWhenFilteredShouldGiveTheIndependentlyCountedRows() throws IOException {
		SessionTree tree = loadFixture(Fixtures.OMP_V3);

		TreeRows userOnly = tree.getTreeRows(RowFilter.USER_ONLY, null);

		assertThat(tree.getTreeRows(RowFilter.DEFAULT, null).matched()).isEqualTo(720);
		assertThat(tree.getTreeRows(RowFilter.NO_TOOLS, null).matched()).isEqualTo(347);
		assertThat(tree.getTreeRows(RowFilter.LABELED_ONLY, null).matched()).isZero();
		assertThat(userOnly.total()).isEqualTo(1019);
		assertThat(userOnly.matched()).isEqualTo(88);
		assertThat(depths(userOnly)).containsOnly(0);
		assertThat(all(userOnly).get(0).id()).isEqualTo("663c75f5");
		assertThat(all(userOnly).get(87).id()).isEqualTo("90f2ca82");
		assertThat(all(userOnly)).extracting(TreeRow::onActivePath).containsOnly(true);
		TreeRows all = tree.getTreeRows(RowFilter.ALL, null);
		assertThat(all.matched()).isEqualTo(825);
		assertThat(all(all).get(1).text()).isEqualTo("assistant: (aborted)");
		TreeRow last = all(all).get(824);
		assertThat(last.id()).isEqualTo("c7739972");
		assertThat(last.isLeaf()).isTrue();
		assertThat(last.text()).isEqualTo("[custom: session_exit]");
		assertThat(all(all).stream().filter(row -> row.id().equals("cae30844")).map(TreeRow::text))
			.singleElement(InstanceOfAssertFactories.STRING)
			.isEqualTo("[read: packages/coding-agent/docs/theme.md]");
	}

	@Test
	void fixtureWhenSearchedShouldMatchTheIndependentlyCountedRows() throws IOException {
		SessionTree tree = loadFixture(Fixtures.OMP_V3);

		assertThat(tree.getTreeRows(RowFilter.USER_ONLY, "theme").matched()).isEqualTo(34);
		assertThat(tree.getTreeRows(RowFilter.USER_ONLY, "thm").matched()).isZero();
		assertThat(ids(tree.getTreeRows(RowFilter.USER_ONLY, "THEME selector"))).containsExactly("222d0daf",
				"c9e03397", "6ce52aef");
		assertThat(tree.getTreeRows(RowFilter.DEFAULT, "cfg").matched()).isZero();
		assertThat(tree.getTreeRows(RowFilter.DEFAULT, "config").matched()).isEqualTo(8);
		assertThat(tree.getTreeRows(RowFilter.NO_TOOLS, "tui renderer").matched()).isEqualTo(4);
		assertThat(tree.getTreeRows(RowFilter.ALL, "thinking high").matched()).isEqualTo(23);
		assertThat(tree.getTreeRows(RowFilter.ALL, "thinking").matched()).isEqualTo(128);
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "model claude"))).containsExactly("c94944ed");
		assertThat(ids(tree.getTreeRows(RowFilter.ALL, "session_exit"))).containsExactly("c7739972");
	}

	// entries

	private static SessionTree tree(EntryLine... entries) {
		return SessionTree.of(HEADER, null, List.of(entries));
	}

	private static EntryLine user(String id, @Nullable String parentId, int second, String text) {
		return message(id, parentId, second, "'role':'user','content':[{'type':'text','text':'" + text + "'}]");
	}

	private static EntryLine assistant(String id, String parentId, int second, String text) {
		return message(id, parentId, second,
				"'role':'assistant','content':[{'type':'text','text':'" + text + "'}],'stopReason':'stop'");
	}

	private static EntryLine toolCalls(String id, String parentId, int second, String stopReason) {
		return message(id, parentId, second,
				"'role':'assistant','content':[" + TOOL_CALL + "],'stopReason':'" + stopReason + "'");
	}

	private static EntryLine toolCallsWithText(String id, String parentId, int second, String text) {
		return message(id, parentId, second, "'role':'assistant','content':[{'type':'text','text':'" + text + "'},"
				+ TOOL_CALL + "],'stopReason':'toolUse'");
	}

	private static EntryLine thinkingOnly(String id, String parentId, int second) {
		return message(id, parentId, second, "'role':'assistant','content':[{'type':'thinking','thinking':'hmm'},"
				+ TOOL_CALL + "],'stopReason':'toolUse'");
	}

	private static EntryLine blankText(String id, String parentId, int second) {
		return message(id, parentId, second, "'role':'assistant','content':[{'type':'text','text':' \\n '},"
				+ TOOL_CALL + "],'stopReason':'toolUse'");
	}

	private static EntryLine toolResult(String id, String parentId, int second, String text) {
		return message(id, parentId, second, "'role':'toolResult','toolCallId':'call1','toolName':'read','content':"
				+ "[{'type':'text','text':'" + text + "'}],'isError':false");
	}

	private static EntryLine message(String id, @Nullable String parentId, int second, String messageFields) {
		return entry("message", id, parentId, second, "'message':{" + messageFields + "}");
	}

	/** One entry; {@code fields} is JSON with single quotes for double quotes, so no text may hold one. */
	private static EntryLine entry(String type, String id, @Nullable String parentId, int second, String fields) {
		String parent = (parentId != null) ? "'" + parentId + "'" : "null";
		String json = "{'type':'" + type + "','id':'" + id + "','parentId':" + parent + ",'timestamp':'"
				+ Timestamps.format(START.plusSeconds(second)) + "'," + fields + "}";
		return EntryLine.of(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
	}

	private static List<TreeRow> all(TreeRows rows) {
		return rows.rows(0, rows.matched());
	}

	private static List<String> ids(TreeRows rows) {
		return all(rows).stream().map(TreeRow::id).toList();
	}

	private static List<Integer> depths(TreeRows rows) {
		return all(rows).stream().map(TreeRow::depth).toList();
	}

	// the fixture, read here because storage is not part of this package

	/** A title slot on line 1, the header on line 2, then one entry a line. */
	private static SessionTree loadFixture(String name) throws IOException {
		List<String> lines = Files.readAllLines(Fixtures.path(name), StandardCharsets.UTF_8);
		Function<String, byte[]> bytes = line -> line.getBytes(StandardCharsets.UTF_8);
		SessionHeader header = SessionHeader.parse(Json.parseObject(bytes.apply(lines.get(1))));
		assertThat(header).isNotNull();
		List<EntryLine> entries = lines.subList(2, lines.size())
			.stream()
			.filter(line -> !line.isBlank())
			.map(line -> EntryLine.of(bytes.apply(line)))
			.toList();
		return SessionTree.of(header, null, entries);
	}

}

package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.arbor.Fixtures;
import dev.arbor.TestSessions;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static dev.arbor.session.Entries.arr;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.entry;
import static dev.arbor.session.Entries.label;
import static dev.arbor.session.Entries.obj;
import static dev.arbor.session.Entries.textBlock;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outline of the tree (docs/API.md#tree): chains of single-child entries folded into segments, in the order of
 * the {@code all} view's rows, on hand-made trees, a deep chain and the session files.
 */
class TreeOutlineTests {

	@Test
	void outlineOfAChainShouldBeOneSegmentHoldingEveryEntry() {
		SessionTree tree = tree(user("u1", null, at(1), "Make the config loader read env vars"),
				assistant("a1", "u1", 2, "Done."), user("u2", "a1", at(3), "Now add a .env file"),
				assistant("a2", "u2", 4, "Added."));

		TreeOutline outline = TreeOutline.of(tree);

		assertThat(outline.leafId()).isEqualTo("a2");
		assertThat(outline.entryCount()).isEqualTo(4);
		assertThat(outline.segments()).singleElement().satisfies(segment -> {
			assertThat(segment.first().id()).isEqualTo("u1");
			assertThat(segment.last().id()).isEqualTo("a2");
			assertThat(segment.length()).isEqualTo(4);
			assertThat(segment.parentId()).isNull();
			assertThat(segment.depth()).isZero();
			assertThat(segment.childSegments()).isEmpty();
			assertThat(segment.onActivePath()).isTrue();
			assertThat(segment.containsLeaf()).isTrue();
			assertThat(segment.firstUserText()).isEqualTo("Make the config loader read env vars");
			assertThat(segment.labelCount()).isZero();
			assertThat(segment.firstRowId()).isEqualTo("u1");
			assertThat(segment.lastRowId()).isEqualTo("a2");
		});
	}

	@Test
	void outlineWhenABranchPointHasChildrenShouldEndTheSegmentThereAndListTheLeafsBranchFirst() {
		// r → q (branch point) → three branches; written out of timestamp order, the leaf on the latest-written.
		SessionTree tree = tree(user("r", null, at(1), "root"), assistant("q", "r", 2, "answer"),
				user("b1", "q", at(5), "one"), assistant("b1a", "b1", 6, "one answered"), user("b2", "q", at(3), "two"),
				user("b3", "q", at(4), "three"), assistant("b3a", "b3", 7, "three answered"));

		tree.branch("b3a");
		TreeOutline outline = TreeOutline.of(tree);

		assertThat(firstIds(outline)).containsExactly("r", "b3", "b2", "b1");
		TreeOutline.Segment root = outline.segments().get(0);
		assertThat(root.last().id()).isEqualTo("q");
		assertThat(root.length()).isEqualTo(2);
		assertThat(root.childSegments()).containsExactly("b3", "b2", "b1");
		assertThat(root.onActivePath()).isTrue();
		assertThat(root.containsLeaf()).isFalse();
		assertThat(outline.segments().subList(1, 4)).allSatisfy(branch -> {
			assertThat(branch.parentId()).isEqualTo("q");
			assertThat(branch.depth()).isEqualTo(1);
			assertThat(branch.childSegments()).isEmpty();
		});
		assertThat(outline.segments()).extracting(TreeOutline.Segment::length).containsExactly(2, 2, 1, 2);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::onActivePath)
			.containsExactly(true, true, false, false);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::containsLeaf)
			.containsExactly(false, true, false, false);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::firstUserText)
			.containsExactly("root", "three", "two", "one");
		assertCoversTheRowsOfTheAllView(tree, outline);
	}

	@Test
	void outlineWhenLeafIsResetShouldKeepTimestampOrderAndMarkNoActivePath() {
		SessionTree tree = tree(user("r", null, at(1), "root"), user("b1", "r", at(5), "one"),
				user("b2", "r", at(3), "two"));

		tree.resetLeaf();
		TreeOutline outline = TreeOutline.of(tree);

		assertThat(outline.leafId()).isNull();
		assertThat(firstIds(outline)).containsExactly("r", "b2", "b1");
		assertThat(outline.segments()).extracting(TreeOutline.Segment::onActivePath).containsOnly(false);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::containsLeaf).containsOnly(false);
	}

	@Test
	void outlineWhenSeveralRootsShouldStartWithTheLeafsRootThenTheOthersInFileOrder() {
		SessionTree tree = tree(user("x", null, at(1), "x"), assistant("xa", "x", 2, "xa"), user("y", null, at(3), "y"),
				assistant("ya", "y", 4, "ya"), user("z", "gone", at(5), "z"), assistant("za", "z", 6, "za"));

		tree.branch("ya");
		TreeOutline outline = TreeOutline.of(tree);

		assertThat(firstIds(outline)).containsExactly("y", "x", "z");
		assertThat(outline.segments()).extracting(segment -> segment.last().id()).containsExactly("ya", "xa", "za");
		assertThat(outline.segments()).extracting(TreeOutline.Segment::parentId).containsOnlyNulls();
		assertThat(outline.segments()).extracting(TreeOutline.Segment::depth).containsOnly(0);
		assertCoversTheRowsOfTheAllView(tree, outline);
	}

	@Test
	void outlineWhenChainIs300000EntriesDeepShouldBeOneSegmentWithoutRecursion() {
		List<EntryLine> entries = new ArrayList<>();
		for (int i = 0; i < 300_000; i++) {
			entries.add(Entries.line("{\"type\":\"custom\",\"id\":\"e" + i + "\",\"parentId\":"
					+ ((i > 0) ? "\"e" + (i - 1) + "\"" : "null") + ",\"timestamp\":\"" + at(i) + "\"}"));
		}
		entries.add(user("branch", "e149999", at(300_000), "a side branch halfway down"));
		SessionTree tree = SessionTree.of(Entries.header(), null, entries);
		tree.branch("e299999");

		TreeOutline outline = TreeOutline.of(tree);

		assertThat(outline.entryCount()).isEqualTo(300_001);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::length).containsExactly(150_000, 150_000, 1);
		assertThat(firstIds(outline)).containsExactly("e0", "e150000", "branch");
		assertThat(outline.segments().get(1).last().id()).isEqualTo("e299999");
		assertThat(outline.segments().get(1).firstUserText()).isNull();
		assertThat(outline.segments().get(2).firstUserText()).isEqualTo("a side branch halfway down");
		assertThat(outline.segments().get(2).depth()).isEqualTo(1);
	}

	@Test
	void rowIdsWhenASegmentEndsInToolCallOnlyAssistantMessagesShouldNameTheRowsItHolds() {
		// Tool-call-only assistant messages are no row of any view unless they are the leaf
		// (docs/SESSION-FORMAT.md#the-selector-rows).
		SessionTree tree = tree(toolCalls("c0", null, 1), user("u1", "c0", at(2), "go"), toolCalls("c1", "u1", 3),
				user("u2", "c1", at(4), "this way"), toolCalls("c2", "u2", 5), user("u3", "c1", at(6), "that way"),
				toolCalls("c3", "u3", 7), toolCalls("c4", "c3", 8), user("u4", "c1", at(9), "or here"),
				toolCalls("c5", "u4", 10));

		tree.branch("c5");
		TreeOutline outline = TreeOutline.of(tree);

		assertThat(firstIds(outline)).containsExactly("c0", "u4", "u2", "u3");
		assertThat(outline.segments()).extracting(TreeOutline.Segment::firstRowId)
			.containsExactly("u1", "u4", "u2", "u3");
		// c5 is the leaf, so it is a row; c2, c3 and c4 are not.
		assertThat(outline.segments()).extracting(TreeOutline.Segment::lastRowId)
			.containsExactly("u1", "c5", "u2", "u3");
		assertCoversTheRowsOfTheAllView(tree, outline);
	}

	@Test
	void rowIdsWhenNoEntryOfASegmentIsARowShouldBeNull() {
		SessionTree tree = tree(user("u1", null, at(1), "go"), toolCalls("c1", "u1", 2), toolCalls("c2", "u1", 3),
				toolCalls("c3", "c2", 4), user("u2", "u1", at(5), "leaf"));

		TreeOutline outline = TreeOutline.of(tree);

		assertThat(firstIds(outline)).containsExactly("u1", "u2", "c1", "c2");
		assertThat(outline.segments().get(3).length()).isEqualTo(2);
		assertThat(outline.segments().get(3).firstRowId()).isNull();
		assertThat(outline.segments().get(3).lastRowId()).isNull();
		assertCoversTheRowsOfTheAllView(tree, outline);
	}

	@Test
	void firstUserTextShouldBeTheRowPreviewOfTheFirstUserMessage() {
		SessionTree tree = tree(entry("model_change", "m1", null, at(1), "model", "anthropic/claude-sonnet-4-5"),
				user("u1", "m1", at(2), "first line\nsecond\tline " + "x".repeat(300)), user("u2", "u1", at(3), "later"));

		TreeOutline.Segment segment = TreeOutline.of(tree).segments().get(0);

		assertThat(segment.firstUserText()).startsWith("first line second line xxx").hasSize(200);
	}

	@Test
	void labelCountShouldCountTheSegmentsLabelledEntries() {
		SessionTree tree = tree(user("u1", null, at(1), "one"), user("u2", "u1", at(2), "two"),
				user("u3", "u1", at(3), "three"), label("l1", "u3", at(4), "u1", "start"),
				label("l2", "l1", at(5), "u3", "picked"), label("l3", "l2", at(6), "u2", "gone"),
				label("l4", "l3", at(7), "u2", null));

		TreeOutline outline = TreeOutline.of(tree);

		assertThat(firstIds(outline)).containsExactly("u1", "u3", "u2");
		assertThat(outline.segments()).extracting(TreeOutline.Segment::labelCount).containsExactly(1, 1, 0);
	}

	@Test
	void outlineWhenEntriesFormACycleOrRepeatAnIdShouldHoldEveryEntryOfTheTreeOnce() {
		SessionTree tree = tree(user("r", null, at(1), "root"), user("x", "y", at(2), "x"), user("y", "x", at(3), "y"),
				user("k", "y", at(4), "below the cycle"), user("r", null, at(5), "root again"));

		TreeOutline outline = TreeOutline.of(tree);

		// The leaf is the later r; x stands in as the root of what only the cycle reaches, and y's child x is taken.
		assertThat(outline.entryCount()).isEqualTo(4);
		assertThat(firstIds(outline)).containsExactly("r", "x");
		assertThat(outline.segments()).extracting(TreeOutline.Segment::length).containsExactly(1, 3);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::parentId).containsOnlyNulls();
		assertCoversTheRowsOfTheAllView(tree, outline);
		// With the leaf on the cycle, its walk up stops at x (whose parent y it has passed): x is the leaf's root.
		tree.branch("y");
		TreeOutline onCycle = TreeOutline.of(tree);
		assertThat(firstIds(onCycle)).containsExactly("x", "r");
		assertThat(onCycle.segments().get(0).containsLeaf()).isTrue();
		assertCoversTheRowsOfTheAllView(tree, onCycle);
	}

	@Test
	void outlineOfAnEmptySessionShouldHaveNoSegments() {
		TreeOutline outline = TreeOutline.of(tree());

		assertThat(outline.leafId()).isNull();
		assertThat(outline.entryCount()).isZero();
		assertThat(outline.segments()).isEmpty();
	}

	@Test
	void outlineOfTheTestSessionShouldFoldItsThreeBranchPointsIntoSevenSegments() {
		SessionTree tree = load(TestSessions.lines(TestSessions.OMP_V3));

		TreeOutline outline = TreeOutline.of(tree);

		assertThat(outline.entryCount()).isEqualTo(132);
		assertThat(outline.segments()).hasSize(7);
		TreeOutline.Segment root = outline.segments().get(0);
		assertThat(root.first().id()).isEqualTo("51375eee");
		assertThat(root.last().id()).isEqualTo("cde59dff");
		assertThat(outline.segments()).filteredOn(segment -> segment.childSegments().size() == 2)
			.extracting(segment -> segment.last().id())
			.containsExactlyInAnyOrder("cde59dff", "ae9ecf53", "98abed60");
		assertThat(outline.segments()).filteredOn(TreeOutline.Segment::containsLeaf)
			.singleElement()
			.satisfies(segment -> assertThat(segment.last().id()).isEqualTo("992acf8d"));
		// Counted independently (a Python script over the file): the leaf's path holds 62 + 17 + 30 + 7 = 116 entries.
		assertThat(outline.segments()).filteredOn(TreeOutline.Segment::onActivePath)
			.extracting(TreeOutline.Segment::length)
			.containsExactly(62, 17, 30, 7);
		assertThat(firstIds(outline)).containsExactly("51375eee", "653bc9e4", "3058d46d", "39f892bc", "4af4f4ce",
				"28268b75", "46123e84");
		assertThat(outline.segments()).extracting(TreeOutline.Segment::length).containsExactly(62, 17, 30, 7, 4, 4, 8);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::labelCount).containsExactly(0, 0, 1, 1, 0, 0, 0);
		assertThat(outline.segments()).extracting(TreeOutline.Segment::depth).containsExactly(0, 1, 2, 3, 3, 2, 1);
		assertCoversTheRowsOfTheAllView(tree, outline);
	}

	@Test
	void outlineOfTheUpstreamFixtureShouldBeOneSegmentOfAll1019Entries() {
		List<String> lines = List.of(new String(Fixtures.bytes(Fixtures.OMP_V3), StandardCharsets.UTF_8).split("\n"));
		SessionTree tree = load(lines);

		TreeOutline outline = TreeOutline.of(tree);

		assertThat(outline.segments()).singleElement().satisfies(segment -> {
			assertThat(segment.length()).isEqualTo(1019);
			assertThat(segment.last().id()).isEqualTo("c7739972");
			assertThat(segment.firstUserText()).isNotBlank();
		});
		assertCoversTheRowsOfTheAllView(tree, outline);
	}

	/**
	 * Every entry of the tree lies in exactly one segment, each segment is a chain from its first to its last entry,
	 * and expanding the segments in order (their rows of the {@code all} view, from {@code firstRowId} to
	 * {@code lastRowId}) gives exactly the {@code all} view's rows, each once.
	 */
	private static void assertCoversTheRowsOfTheAllView(SessionTree tree, TreeOutline outline) {
		TreeRows all = tree.getTreeRows(RowFilter.ALL, null);
		Set<String> rowIds = new HashSet<>();
		all.rows(0, all.matched()).forEach(row -> rowIds.add(row.id()));
		List<String> expanded = new ArrayList<>();
		Set<EntryLine> covered = new HashSet<>();
		int lengths = 0;
		for (TreeOutline.Segment segment : outline.segments()) {
			List<EntryLine> chain = chain(tree, segment);
			assertThat(chain).hasSize(segment.length());
			List<String> rows = chain.stream().map(EntryLine::id).filter(rowIds::contains).toList();
			assertThat(segment.firstRowId()).isEqualTo(rows.isEmpty() ? null : rows.get(0));
			assertThat(segment.lastRowId()).isEqualTo(rows.isEmpty() ? null : rows.get(rows.size() - 1));
			expanded.addAll(rows);
			covered.addAll(chain);
			lengths += segment.length();
		}
		assertThat(expanded).isEqualTo(all.rows(0, all.matched()).stream().map(TreeRow::id).toList());
		assertThat(lengths).isEqualTo(outline.entryCount()).isEqualTo(all.total()).isEqualTo(covered.size());
	}

	/** The segment's entries, walking up its parents from the last to the first. */
	private static List<EntryLine> chain(SessionTree tree, TreeOutline.Segment segment) {
		List<EntryLine> chain = new ArrayList<>();
		int position = tree.positionOf(segment.last().id());
		while (true) {
			chain.add(0, tree.at(position));
			if (tree.at(position) == segment.first()) {
				return chain;
			}
			position = tree.parentOf(position);
			assertThat(position).as("the walk up from %s reaches %s", segment.last().id(), segment.first().id())
				.isNotNegative();
		}
	}

	private static List<String> firstIds(TreeOutline outline) {
		return outline.segments().stream().map(segment -> segment.first().id()).toList();
	}

	private static EntryLine assistant(String id, String parentId, int second, String text) {
		return entry(EntryTypes.MESSAGE, id, parentId, at(second), "message",
				obj("role", "assistant", "content", arr(textBlock(text)), "stopReason", "stop"));
	}

	private static EntryLine toolCalls(String id, @Nullable String parentId, int second) {
		return entry(EntryTypes.MESSAGE, id, parentId, at(second), "message", obj("role", "assistant", "content",
				arr(obj("type", "toolCall", "id", "call-" + id, "name", "read", "arguments", obj("path", "a.txt"))),
				"stopReason", "toolUse"));
	}

	/** A title slot or header first, then entries (the file as stored, read here because storage is not in reach). */
	private static SessionTree load(List<String> lines) {
		int header = lines.get(0).contains("\"type\":\"session\"") ? 0 : 1;
		SessionHeader parsed = SessionHeader.parse(Json.parseObject(lines.get(header).getBytes(StandardCharsets.UTF_8)));
		assertThat(parsed).isNotNull();
		List<EntryLine> entries = lines.subList(header + 1, lines.size())
			.stream()
			.filter(line -> !line.isBlank())
			.map(line -> EntryLine.of(line.getBytes(StandardCharsets.UTF_8)))
			.toList();
		return SessionTree.of(parsed, null, entries);
	}

}

package dev.arbor.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.entry;
import static dev.arbor.session.Entries.ids;
import static dev.arbor.session.Entries.label;
import static dev.arbor.session.Entries.line;
import static dev.arbor.session.Entries.millisAt;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Reading the tree (docs/SESSION-FORMAT.md#the-tree and
 * docs/SESSION-FORMAT.md#labels-compactions-branch-summaries-models-and-thinking-levels): lookups, paths, children, the
 * tree view and labels, over well-formed files and over the odd ones upstream agents leave behind (duplicate ids,
 * dangling parents, cycles, very deep chains).
 */
class SessionTreeTests {

	/**
	 * <pre>
	 * a
	 * ├── b
	 * │   └── c
	 * └── d
	 * </pre>
	 */
	private static SessionTree branched() {
		return tree(user("a", null, at(0), "first"), assistant("b", "a", at(1), "anthropic", "claude", "answer"),
				user("c", "b", at(2), "second"), user("d", "a", at(3), "elsewhere"));
	}

	@Test
	void getEntryWhenIdIsKnownShouldReturnThatEntry() {
		SessionTree tree = branched();
		assertThat(tree.getEntry("c")).hasValueSatisfying((entry) -> {
			assertThat(entry.id()).isEqualTo("c");
			assertThat(entry.parentId()).isEqualTo("b");
			assertThat(entry.type()).isEqualTo("message");
		});
	}

	@Test
	void getEntryWhenIdIsUnknownShouldBeEmpty() {
		assertThat(branched().getEntry("zzz")).isEmpty();
	}

	@Test
	void requireEntryWhenIdIsUnknownShouldSayEntryNotFound() {
		assertThatExceptionOfType(EntryNotFoundException.class).isThrownBy(() -> branched().requireEntry("zzz"))
			.withMessage("Entry zzz not found")
			.satisfies((ex) -> assertThat(ex.entryId()).isEqualTo("zzz"));
	}

	@Test
	void getEntriesShouldListEveryEntryInFileOrder() {
		SessionTree tree = branched();
		assertThat(ids(tree.getEntries())).containsExactly("a", "b", "c", "d");
		assertThat(tree.size()).isEqualTo(4);
	}

	@Test
	void getEntriesWhenIdsAreDuplicatedShouldListEveryLine() {
		EntryLine first = user("a", null, at(0), "first");
		EntryLine other = user("b", "a", at(1), "other");
		EntryLine second = user("a", "b", at(2), "second");
		SessionTree tree = tree(first, other, second);
		assertThat(tree.getEntries()).containsExactly(first, other, second);
		assertThat(tree.size()).isEqualTo(3);
	}

	@Test
	void getEntryWhenIdIsDuplicatedShouldReturnTheLaterEntry() {
		EntryLine first = user("a", null, at(0), "first");
		EntryLine second = user("a", null, at(1), "second");
		SessionTree tree = tree(first, second);
		assertThat(tree.getEntry("a")).contains(second);
	}

	@Test
	void getPathShouldListRootFirstDownToTheEntry() {
		SessionTree tree = branched();
		assertThat(ids(tree.getPath("c"))).containsExactly("a", "b", "c");
		assertThat(ids(tree.getPath("d"))).containsExactly("a", "d");
		assertThat(ids(tree.getPath("a"))).containsExactly("a");
	}

	@Test
	void getPathWhenIdIsUnknownShouldBeEmpty() {
		assertThat(branched().getPath("zzz")).isEmpty();
	}

	@Test
	void getPathWhenIdIsNullShouldBeEmpty() {
		assertThat(branched().getPath(null)).isEmpty();
	}

	@Test
	void getLeafPathShouldFollowTheLeaf() {
		SessionTree tree = branched();
		assertThat(ids(tree.getLeafPath())).containsExactly("a", "d");
		tree.branch("c");
		assertThat(ids(tree.getLeafPath())).containsExactly("a", "b", "c");
		tree.resetLeaf();
		assertThat(tree.getLeafPath()).isEmpty();
	}

	@Test
	void getChildrenShouldListDirectChildrenInFileOrderWhateverTheirTimestamps() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("late", "a", at(9), "late"),
				user("early", "a", at(1), "early"), user("grandchild", "early", at(2), "deeper"),
				user("middle", "a", at(5), "middle"));
		assertThat(ids(tree.getChildren("a"))).containsExactly("late", "early", "middle");
		assertThat(ids(tree.getChildren("early"))).containsExactly("grandchild");
		assertThat(tree.getChildren("middle")).isEmpty();
	}

	@Test
	void leafAfterLoadShouldBeTheLastEntryInFileOrder() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "b"), user("c", "a", at(2), "c"));
		assertThat(tree.leafId()).isEqualTo("c");
		assertThat(tree.newestTimestamp()).isEqualTo(millisAt(2));
	}

	@Test
	void leafOfAnEmptySessionShouldBeNull() {
		SessionTree tree = tree();
		assertThat(tree.leafId()).isNull();
		assertThat(tree.newestTimestamp()).isEqualTo(Timestamps.UNKNOWN);
		assertThat(tree.getEntries()).isEmpty();
		assertThat(tree.getTree().rootIds()).isEmpty();
		assertThat(tree.getTree().nodes()).isEmpty();
	}

	@Test
	void getTreeShouldListRootsInFileOrderNotByTimestamp() {
		SessionTree tree = tree(user("r1", null, at(9), "late root"), user("r2", null, at(1), "early root"),
				user("r3", "nowhere", at(5), "dangling root"));
		assertThat(tree.getTree().rootIds()).containsExactly("r1", "r2", "r3");
	}

	@Test
	void getTreeShouldSortChildrenByTimestampAscending() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("c3", "a", at(3), "three"),
				user("c1", "a", at(1), "one"), user("c2", "a", at(2), "two"));
		assertThat(node(tree.getTree(), "a").childIds()).containsExactly("c1", "c2", "c3");
	}

	@Test
	void getTreeWhenChildrenHaveEqualTimestampsShouldKeepFileOrder() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("x", "a", at(5), "x"), user("y", "a", at(5), "y"),
				user("w", "a", at(1), "w"), user("z", "a", at(5), "z"));
		assertThat(node(tree.getTree(), "a").childIds()).containsExactly("w", "x", "y", "z");
	}

	@Test
	void getTreeShouldCompareTimestampsAsInstantsNotAsText() {
		// "…00:00:01Z" sorts after "…00:00:01.500Z" as text, and before it in time; file order is the text order.
		SessionTree tree = tree(user("a", null, at(0), "root"), user("later", "a", "2025-01-01T00:00:01.500Z", "later"),
				user("earlier", "a", "2025-01-01T00:00:01Z", "earlier"));
		assertThat(node(tree.getTree(), "a").childIds()).containsExactly("earlier", "later");
	}

	@Test
	void getTreeShouldHoldEveryEntryExactlyOnceInFileOrder() {
		SessionTreeView view = branched().getTree();
		assertThat(view.nodes()).extracting(SessionTreeView.Node::id).containsExactly("a", "b", "c", "d");
		assertThat(view.rootIds()).containsExactly("a");
		assertThat(node(view, "a").childIds()).containsExactly("b", "d");
		assertThat(node(view, "b").childIds()).containsExactly("c");
		assertThat(node(view, "c").childIds()).isEmpty();
		assertThat(node(view, "d").childIds()).isEmpty();
		assertThat(view.leafId()).isEqualTo("d");
	}

	@Test
	void getTreeShouldCarryResolvedLabels() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "b"),
				label("l1", "b", at(2), "a", "first"), label("l2", "l1", at(3), "b", "kept"),
				label("l3", "l2", at(4), "a", "second"));
		SessionTreeView view = tree.getTree();
		assertThat(node(view, "a").label()).isEqualTo("second");
		assertThat(node(view, "b").label()).isEqualTo("kept");
		assertThat(node(view, "l1").label()).isNull();
		assertThat(tree.getLabel("a")).isEqualTo("second");
	}

	@Test
	void labelWhenEmptyOrAbsentShouldClearTheLabel() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "b"),
				label("l1", "b", at(2), "a", "on a"), label("l2", "l1", at(3), "b", "on b"),
				label("l3", "l2", at(4), "a", ""), label("l4", "l3", at(5), "b", null));
		assertThat(tree.getLabel("a")).isNull();
		assertThat(tree.getLabel("b")).isNull();
		assertThat(tree.getLabels()).isEmpty();
		assertThat(tree.getTree().nodes()).extracting(SessionTreeView.Node::label).containsOnlyNulls();
	}

	@Test
	void labelWhenSetAgainAfterClearingShouldShowTheNewLabel() {
		SessionTree tree = tree(user("a", null, at(0), "root"), label("l1", "a", at(1), "a", "one"),
				label("l2", "l1", at(2), "a", null), label("l3", "l2", at(3), "a", "two"));
		assertThat(tree.getLabel("a")).isEqualTo("two");
	}

	@Test
	void labelWhenTargetIsUnknownShouldBeKeptButShowNowhere() {
		SessionTree tree = tree(user("a", null, at(0), "root"), label("l1", "a", at(1), "ghost", "boo"),
				label("l2", "l1", at(2), "a", "real"));
		assertThat(ids(tree.getEntries())).containsExactly("a", "l1", "l2");
		assertThat(tree.getLabels()).containsExactly(Map.entry("a", "real"));
		assertThat(tree.getLabel("ghost")).isNull();
		assertThat(tree.getTree().nodes()).extracting(SessionTreeView.Node::id).containsExactly("a", "l1", "l2");
	}

	@Test
	void labelsOnAnotherBranchShouldStillResolve() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "b"),
				label("l1", "a", at(2), "b", "from a side branch"));
		tree.branch("b");
		assertThat(tree.getLabel("b")).isEqualTo("from a side branch");
	}

	@Test
	void getTreeWhenIdsAreDuplicatedShouldShowTheLaterEntryOnce() {
		EntryLine earlier = user("b", "a", at(1), "earlier b");
		EntryLine later = user("b", null, at(3), "later b");
		SessionTree tree = tree(user("a", null, at(0), "root"), earlier, user("c", "b", at(2), "child of b"), later);
		SessionTreeView view = tree.getTree();
		assertThat(view.nodes()).extracting(SessionTreeView.Node::id).containsExactly("a", "c", "b");
		assertThat(node(view, "b").entry()).isEqualTo(later);
		assertThat(view.rootIds()).containsExactly("a", "b");
		assertThat(node(view, "a").childIds()).isEmpty();
		assertThat(node(view, "b").childIds()).containsExactly("c");
	}

	@Test
	void parentIdNamingADuplicatedIdShouldResolveToTheLaterEntry() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "earlier b"),
				user("c", "b", at(2), "child of b"), user("b", null, at(3), "later b, a root"));
		assertThat(ids(tree.getPath("c"))).containsExactly("b", "c");
		assertThat(tree.getPath("c").get(0).json()).contains("later b, a root");
		assertThat(tree.getChildren("a")).isEmpty();
		assertThat(ids(tree.getChildren("b"))).containsExactly("c");
	}

	@Test
	void parentIdNamingNoEntryShouldMakeARoot() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "missing", at(1), "orphan"),
				user("c", "b", at(2), "child of orphan"));
		assertThat(ids(tree.getPath("c"))).containsExactly("b", "c");
		assertThat(tree.getTree().rootIds()).containsExactly("a", "b");
	}

	@Test
	void parentIdNamingTheEntryItselfShouldMakeARoot() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("s", "s", at(1), "own parent"),
				user("t", "s", at(2), "child"));
		assertThat(ids(tree.getPath("s"))).containsExactly("s");
		assertThat(ids(tree.getPath("t"))).containsExactly("s", "t");
		assertThat(ids(tree.getChildren("s"))).containsExactly("t");
		assertThat(tree.getTree().rootIds()).containsExactly("a", "s");
	}

	@Test
	void entryWithoutParentIdFieldShouldBeARoot() {
		SessionTree tree = tree(user("a", null, at(0), "root"),
				line("{\"type\":\"custom\",\"id\":\"n\",\"timestamp\":\"" + at(1) + "\",\"customType\":\"x\"}"),
				line("{\"type\":\"custom\",\"id\":\"m\",\"parentId\":42,\"timestamp\":\"" + at(2)
						+ "\",\"customType\":\"x\"}"));
		assertThat(tree.getTree().rootIds()).containsExactly("a", "n", "m");
		assertThat(ids(tree.getPath("n"))).containsExactly("n");
	}

	@Test
	void parentLaterInTheFileShouldStillBeTheParent() {
		SessionTree tree = tree(user("child", "parent", at(1), "written first"), user("parent", null, at(0), "root"));
		assertThat(ids(tree.getPath("child"))).containsExactly("parent", "child");
		assertThat(ids(tree.getChildren("parent"))).containsExactly("child");
		assertThat(tree.getTree().rootIds()).containsExactly("parent");
	}

	@Test
	void getPathWhenParentsFormACycleShouldStopAtTheFirstRepeatedId() {
		SessionTree tree = tree(user("a", "c", at(0), "a"), user("b", "a", at(1), "b"), user("c", "b", at(2), "c"));
		assertThat(ids(tree.getPath("c"))).containsExactly("a", "b", "c");
		assertThat(ids(tree.getPath("a"))).containsExactly("b", "c", "a");
	}

	@Test
	void getPathWhenAChainLeadsIntoACycleShouldListEachEntryOnce() {
		SessionTree tree = tree(user("x", "y", at(0), "x"), user("y", "x", at(1), "y"), user("t1", "x", at(2), "tail"),
				user("t2", "t1", at(3), "tail"));
		assertThat(ids(tree.getPath("t2"))).containsExactly("y", "x", "t1", "t2");
	}

	@Test
	void getTreeWhenParentsFormACycleShouldShowEveryEntryOnce() {
		SessionTree tree = tree(user("r", null, at(0), "root"), user("x", "y", at(1), "x"), user("y", "x", at(2), "y"),
				user("z", "x", at(3), "z"));
		SessionTreeView view = tree.getTree();
		assertThat(view.nodes()).extracting(SessionTreeView.Node::id).containsExactly("r", "x", "y", "z");
		assertThat(view.rootIds()).containsExactly("r", "x");
		assertThat(node(view, "x").childIds()).containsExactly("y", "z");
		assertThat(node(view, "y").childIds()).isEmpty();
	}

	@Test
	void getTreeWhenAnEntryHangsOffACycleShouldShowItUnderItsParent() {
		// z comes first in the file but is no part of the cycle: the view starts at the cycle entry z hangs from.
		SessionTree tree = tree(user("z", "x", at(3), "z"), user("x", "y", at(1), "x"), user("y", "x", at(2), "y"));
		SessionTreeView view = tree.getTree();
		assertThat(view.nodes()).extracting(SessionTreeView.Node::id).containsExactly("z", "x", "y");
		assertThat(view.rootIds()).containsExactly("x");
		assertThat(node(view, "x").childIds()).containsExactly("y", "z");
		assertThat(node(view, "y").childIds()).isEmpty();
	}

	@Test
	void getPathOnAVeryDeepChainShouldReturnEveryEntryWithoutOverflowingTheStack() {
		int depth = 100_000;
		List<EntryLine> lines = new ArrayList<>(depth);
		for (int i = 0; i < depth; i++) {
			String parent = (i > 0) ? "\"e" + (i - 1) + "\"" : "null";
			lines.add(line("{\"type\":\"message\",\"id\":\"e" + i + "\",\"parentId\":" + parent + ",\"timestamp\":\""
					+ at(i) + "\",\"message\":{\"role\":\"user\",\"content\":\"m" + i + "\"}}"));
		}
		SessionTree tree = SessionTree.of(Entries.header(), null, lines);
		List<EntryLine> path = tree.getPath("e99999");
		assertThat(path).hasSize(depth);
		assertThat(path.get(0).id()).isEqualTo("e0");
		assertThat(path.get(depth - 1).id()).isEqualTo("e99999");
		assertThat(tree.getPath("e50000")).hasSize(50_001);
		SessionTreeView view = tree.getTree();
		assertThat(view.rootIds()).containsExactly("e0");
		assertThat(view.nodes()).hasSize(depth);
		assertThat(tree.buildSessionContext().messages()).hasSize(depth);
	}

	@Test
	void getLabelsShouldMapTargetsToTheirCurrentLabels() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "b"),
				label("l1", "b", at(2), "a", "alpha"), label("l2", "l1", at(3), "b", "beta"));
		Map<String, String> expected = new LinkedHashMap<>();
		expected.put("a", "alpha");
		expected.put("b", "beta");
		assertThat(tree.getLabels()).containsExactlyEntriesOf(expected);
	}

	@Test
	void unknownEntryTypesShouldBeKeptAndShownInTheTree() {
		EntryLine unknown = entry("future_thing", "f", "a", at(1), "payload", Entries.obj("x", 1));
		SessionTree tree = tree(user("a", null, at(0), "root"), unknown);
		assertThat(tree.getEntry("f")).contains(unknown);
		assertThat(node(tree.getTree(), "a").childIds()).containsExactly("f");
		assertThat(tree.getEntry("f").get().toNode().get("payload").get("x").asInt()).isEqualTo(1);
	}

	@Test
	void getEntriesAfterWhenIdIsNullShouldListEveryEntry() {
		SessionTree tree = branched();
		assertThat(tree.getEntriesAfter(null)).containsExactlyElementsOf(tree.getEntries());
	}

	@Test
	void getEntriesAfterShouldListTheLaterEntriesInFileOrderWhateverTheTree() {
		SessionTree tree = branched();
		assertThat(ids(tree.getEntriesAfter("a"))).containsExactly("b", "c", "d");
		assertThat(ids(tree.getEntriesAfter("b"))).containsExactly("c", "d");
		assertThat(ids(tree.getEntriesAfter("c"))).containsExactly("d"); // d is on another branch
	}

	@Test
	void getEntriesAfterTheLastEntryShouldBeEmpty() {
		assertThat(branched().getEntriesAfter("d")).isEmpty();
	}

	@Test
	void getEntriesAfterWhenSessionIsEmptyShouldBeEmpty() {
		assertThat(tree().getEntriesAfter(null)).isEmpty();
	}

	@Test
	void getEntriesAfterWhenIdIsUnknownShouldSayEntryNotFound() {
		assertThatExceptionOfType(EntryNotFoundException.class).isThrownBy(() -> branched().getEntriesAfter("zzz"))
			.withMessage("Entry zzz not found")
			.satisfies((ex) -> assertThat(ex.entryId()).isEqualTo("zzz"));
	}

	@Test
	void getEntriesAfterShouldBeReadOnly() {
		List<EntryLine> after = branched().getEntriesAfter("a");
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> after.add(user("e", "d", at(4), "e")));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> after.remove(0));
	}

	@Test
	void getEntriesAfterShouldPageThroughEveryEntryOnce() {
		SessionTree tree = tree(user("a", null, at(0), "a"), user("b", "a", at(1), "b"), user("c", null, at(2), "c"),
				label("l", "c", at(3), "a", "x"), user("d", "b", at(4), "d"));
		List<String> paged = new ArrayList<>();
		String after = null;
		while (true) {
			List<EntryLine> rest = tree.getEntriesAfter(after);
			if (rest.isEmpty()) {
				break;
			}
			List<EntryLine> page = rest.subList(0, Math.min(2, rest.size()));
			paged.addAll(ids(page));
			after = page.get(page.size() - 1).id();
		}
		assertThat(paged).containsExactly("a", "b", "c", "l", "d");
	}

	@Test
	void getEntriesAfterWhenEntriesWereAppendedShouldListTheNewOnes() {
		SessionTree tree = branched();
		tree.append(List.of(user("e", "d", at(4), "e"), user("f", "e", at(5), "f")));
		assertThat(ids(tree.getEntriesAfter("d"))).containsExactly("e", "f");
		assertThat(ids(tree.getEntriesAfter("b"))).containsExactly("c", "d", "e", "f");
	}

	@Test
	void getTreeShouldGiveEachNodeTheParentItHangsUnder() {
		SessionTreeView view = branched().getTree();
		assertThat(node(view, "a").parentId()).isNull();
		assertThat(node(view, "b").parentId()).isEqualTo("a");
		assertThat(node(view, "c").parentId()).isEqualTo("b");
		assertThat(node(view, "d").parentId()).isEqualTo("a");
		assertParentsMatchChildren(view);
	}

	@Test
	void getTreeWhenParentIdNamesNoEntryShouldGiveTheNodeNoParent() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "missing", at(1), "orphan"),
				user("c", "b", at(2), "child of orphan"));
		SessionTreeView view = tree.getTree();
		assertThat(node(view, "b").entry().parentId()).isEqualTo("missing");
		assertThat(node(view, "b").parentId()).isNull();
		assertThat(node(view, "c").parentId()).isEqualTo("b");
		assertParentsMatchChildren(view);
	}

	@Test
	void getTreeWhenParentIdNamesTheEntryItselfShouldGiveTheNodeNoParent() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("s", "s", at(1), "own parent"),
				user("t", "s", at(2), "child"));
		SessionTreeView view = tree.getTree();
		assertThat(node(view, "s").parentId()).isNull();
		assertThat(node(view, "t").parentId()).isEqualTo("s");
		assertParentsMatchChildren(view);
	}

	@Test
	void getTreeWhenParentsFormACycleShouldGiveTheEntryShownAsRootNoParent() {
		SessionTree tree = tree(user("r", null, at(0), "root"), user("x", "y", at(1), "x"), user("y", "x", at(2), "y"),
				user("z", "x", at(3), "z"));
		SessionTreeView view = tree.getTree();
		assertThat(view.rootIds()).containsExactly("r", "x");
		assertThat(node(view, "x").entry().parentId()).isEqualTo("y");
		assertThat(node(view, "x").parentId()).isNull();
		assertThat(node(view, "y").parentId()).isEqualTo("x");
		assertThat(node(view, "z").parentId()).isEqualTo("x");
		assertParentsMatchChildren(view);
	}

	@Test
	void getTreeWhenAnEntryHangsOffACycleShouldGiveItItsStoredParent() {
		SessionTree tree = tree(user("z", "x", at(3), "z"), user("x", "y", at(1), "x"), user("y", "x", at(2), "y"));
		SessionTreeView view = tree.getTree();
		assertThat(node(view, "x").parentId()).isNull();
		assertThat(node(view, "y").parentId()).isEqualTo("x");
		assertThat(node(view, "z").parentId()).isEqualTo("x");
		assertParentsMatchChildren(view);
	}

	@Test
	void getTreeWhenACycleHasNoWayInShouldStartAtTheFirstEntryInFileOrder() {
		SessionTree tree = tree(user("a", "c", at(0), "a"), user("b", "a", at(1), "b"), user("c", "b", at(2), "c"));
		SessionTreeView view = tree.getTree();
		assertThat(view.rootIds()).containsExactly("a");
		assertThat(node(view, "a").parentId()).isNull();
		assertThat(node(view, "b").parentId()).isEqualTo("a");
		assertThat(node(view, "c").parentId()).isEqualTo("b");
		assertParentsMatchChildren(view);
	}

	@Test
	void getTreeWhenIdsAreDuplicatedShouldHangChildrenUnderTheLaterEntry() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "earlier b"),
				user("c", "b", at(2), "child of b"), user("b", null, at(3), "later b"));
		SessionTreeView view = tree.getTree();
		assertThat(node(view, "b").parentId()).isNull();
		assertThat(node(view, "c").parentId()).isEqualTo("b");
		assertParentsMatchChildren(view);
	}

	/** A node has a parent exactly when it is no root, and that parent lists it among its children. */
	private static void assertParentsMatchChildren(SessionTreeView view) {
		for (SessionTreeView.Node node : view.nodes()) {
			if (node.parentId() == null) {
				assertThat(view.rootIds()).as("roots").contains(node.id());
			}
			else {
				assertThat(view.rootIds()).as("roots").doesNotContain(node.id());
				assertThat(node(view, node.parentId()).childIds()).as("children of %s", node.parentId())
					.contains(node.id());
			}
		}
	}

	static SessionTreeView.Node node(SessionTreeView view, String id) {
		return view.nodes().stream().filter((node) -> node.id().equals(id)).findFirst().orElseThrow();
	}

}

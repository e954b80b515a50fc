package dev.arbor.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.drafts;
import static dev.arbor.session.Entries.ids;
import static dev.arbor.session.Entries.json;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Moving the leaf (docs/SESSION-FORMAT.md#the-leaf): {@code branch}, {@code resetLeaf}, {@code branchWithSummary}
 * (prepared, then added once durable) and labels, which move the leaf like any append.
 */
class LeafMovesTests {

	private static final Instant NOW = Entries.T0.plusSeconds(100);

	/** a → b → c, leaf on c. */
	private static SessionTree chain() {
		return tree(user("a", null, at(0), "first"), assistant("b", "a", at(1), "anthropic", "claude", "answer"),
				user("c", "b", at(2), "second"));
	}

	@Test
	void branchShouldMoveTheLeafAndWriteNothing() {
		SessionTree tree = chain();
		List<EntryLine> before = List.copyOf(tree.getEntries());
		tree.branch("a");
		assertThat(tree.leafId()).isEqualTo("a");
		assertThat(tree.getEntries()).containsExactlyElementsOf(before);
	}

	@Test
	void branchWhenIdIsUnknownShouldFailWithEntryNotFoundAndKeepTheLeaf() {
		SessionTree tree = chain();
		tree.branch("b");
		assertThatExceptionOfType(EntryNotFoundException.class).isThrownBy(() -> tree.branch("nope"))
			.withMessage("Entry nope not found")
			.satisfies((ex) -> assertThat(ex.entryId()).isEqualTo("nope"));
		assertThat(tree.leafId()).isEqualTo("b");
	}

	@Test
	void resetLeafShouldMoveTheLeafBeforeTheFirstEntry() {
		SessionTree tree = chain();
		tree.resetLeaf();
		assertThat(tree.leafId()).isNull();
		assertThat(tree.getLeafPath()).isEmpty();
		assertThat(tree.size()).isEqualTo(3);
	}

	@Test
	void appendAfterResetLeafShouldStartANewRoot() {
		SessionTree tree = chain();
		tree.resetLeaf();
		List<EntryLine> lines = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'again'}}"),
				NOW);
		assertThat(lines.get(0).parentId()).isNull();
		tree.append(lines);
		String newId = lines.get(0).id();
		assertThat(tree.leafId()).isEqualTo(newId);
		assertThat(ids(tree.getPath(newId))).containsExactly(newId);
		assertThat(tree.getTree().rootIds()).containsExactly("a", newId);
	}

	@Test
	void moveLeafShouldBranchOrReset() {
		SessionTree tree = chain();
		tree.moveLeaf("a");
		assertThat(tree.leafId()).isEqualTo("a");
		tree.moveLeaf(null);
		assertThat(tree.leafId()).isNull();
		assertThatExceptionOfType(EntryNotFoundException.class).isThrownBy(() -> tree.moveLeaf("nope"))
			.withMessage("Entry nope not found");
	}

	@Test
	void prepareBranchSummaryShouldAttachTheSummaryAtFromIdWithoutChangingTheTree() {
		SessionTree tree = chain();
		ObjectNode details = json("{'readFiles':['a.txt'],'modifiedFiles':[]}");
		EntryLine summary = tree.prepareBranchSummary("a", "We tried X.", details, true, NOW);
		assertThat(summary.type()).isEqualTo("branch_summary");
		assertThat(summary.parentId()).isEqualTo("a");
		ObjectNode node = summary.toNode();
		assertThat(node.get("fromId").asString()).isEqualTo("a");
		assertThat(node.get("summary").asString()).isEqualTo("We tried X.");
		assertThat(node.get("details")).isEqualTo(details);
		assertThat(node.get("fromExtension").asBoolean()).isTrue();
		assertThat(node.get("timestamp").asString()).isEqualTo("2025-01-01T00:01:40.000Z");
		assertThat(summary.id()).matches("[0-9a-f]{8}");
		assertThat(tree.size()).isEqualTo(3);
		assertThat(tree.leafId()).isEqualTo("c");
	}

	@Test
	void branchWithSummaryShouldLeaveTheLeafOnTheSummaryEntry() {
		SessionTree tree = chain();
		EntryLine summary = tree.prepareBranchSummary("a", "We tried X.", null, null, NOW);
		tree.append(List.of(summary));
		assertThat(tree.leafId()).isEqualTo(summary.id());
		assertThat(ids(tree.getLeafPath())).containsExactly("a", summary.id());
		assertThat(ids(tree.getChildren("a"))).containsExactly("b", summary.id());
	}

	@Test
	void branchWithSummaryShouldRecordThePositionNavigatedToNotTheAbandonedLeaf() {
		SessionTree tree = chain();
		EntryLine summary = tree.prepareBranchSummary("b", "Left c behind.", null, null, NOW);
		assertThat(summary.toNode().get("fromId").asString()).isEqualTo("b");
		assertThat(summary.parentId()).isEqualTo("b");
	}

	@Test
	void branchWithSummaryWithoutOptionalFieldsShouldOmitThem() {
		EntryLine summary = chain().prepareBranchSummary("a", "Short.", null, null, NOW);
		assertThat(summary.toNode().has("details")).isFalse();
		assertThat(summary.toNode().has("fromExtension")).isFalse();
	}

	@Test
	void branchWithSummaryWhenFromIdIsNullShouldRecordRootAndStartANewRoot() {
		SessionTree tree = chain();
		EntryLine summary = tree.prepareBranchSummary(null, "Started over.", null, false, NOW);
		assertThat(summary.parentId()).isNull();
		assertThat(summary.toNode().get("fromId").asString()).isEqualTo("root");
		assertThat(summary.toNode().get("fromExtension").asBoolean()).isFalse();
		tree.append(List.of(summary));
		assertThat(tree.leafId()).isEqualTo(summary.id());
		assertThat(tree.getTree().rootIds()).containsExactly("a", summary.id());
	}

	@Test
	void branchWithSummaryWhenFromIdIsUnknownShouldFailWithEntryNotFound() {
		SessionTree tree = chain();
		assertThatExceptionOfType(EntryNotFoundException.class)
			.isThrownBy(() -> tree.prepareBranchSummary("nope", "x", null, null, NOW))
			.withMessage("Entry nope not found");
		assertThat(tree.size()).isEqualTo(3);
		assertThat(tree.leafId()).isEqualTo("c");
	}

	@Test
	void appendAfterBranchWithSummaryShouldContinueFromTheSummary() {
		SessionTree tree = chain();
		EntryLine summary = tree.prepareBranchSummary("a", "We tried X.", null, null, NOW);
		tree.append(List.of(summary));
		List<EntryLine> next = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'go'}}"),
				NOW.plusSeconds(1));
		assertThat(next.get(0).parentId()).isEqualTo(summary.id());
	}

	@Test
	void appendAfterBranchingToAnEarlierEntryShouldGiveItTwoChildrenInTimestampOrder() {
		SessionTree tree = chain();
		tree.branch("a");
		List<EntryLine> lines = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'alt'}}"),
				NOW);
		tree.append(lines);
		String alt = lines.get(0).id();
		assertThat(ids(tree.getChildren("a"))).containsExactly("b", alt);
		assertThat(SessionTreeTests.node(tree.getTree(), "a").childIds()).containsExactly("b", alt);
		assertThat(ids(tree.getLeafPath())).containsExactly("a", alt);
	}

	@Test
	void appendWhenTheNewEntryIsOlderThanItsSiblingShouldSortItFirstInTheTreeOnly() {
		// A sibling stamped in the future (another machine's clock): the tree sorts by time, children stay in file order.
		SessionTree tree = tree(user("a", null, at(0), "first"), user("b", "a", at(1000), "from the future"));
		tree.branch("a");
		List<EntryLine> lines = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'alt'}}"),
				NOW);
		tree.append(lines);
		String alt = lines.get(0).id();
		assertThat(ids(tree.getChildren("a"))).containsExactly("b", alt);
		assertThat(SessionTreeTests.node(tree.getTree(), "a").childIds()).containsExactly(alt, "b");
	}

	@Test
	void appendingALabelShouldMoveTheLeafOntoIt() {
		SessionTree tree = chain();
		List<EntryLine> lines = tree.prepareAppend(drafts("{'type':'label','targetId':'a','label':'start'}"), NOW);
		tree.append(lines);
		EntryLine label = lines.get(0);
		assertThat(label.parentId()).isEqualTo("c");
		assertThat(tree.leafId()).isEqualTo(label.id());
		assertThat(tree.getLabel("a")).isEqualTo("start");
		List<EntryLine> next = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'go'}}"),
				NOW.plusSeconds(1));
		assertThat(next.get(0).parentId()).isEqualTo(label.id());
	}

	@Test
	void appendingALabelWithoutTextShouldClearTheLabel() {
		SessionTree tree = chain();
		tree.append(tree.prepareAppend(drafts("{'type':'label','targetId':'b','label':'keep?'}"), NOW));
		assertThat(tree.getLabel("b")).isEqualTo("keep?");
		tree.append(tree.prepareAppend(drafts("{'type':'label','targetId':'b'}"), NOW.plusSeconds(1)));
		assertThat(tree.getLabel("b")).isNull();
		assertThat(tree.getLabels()).isEmpty();
		assertThat(tree.size()).isEqualTo(5);
	}

	@Test
	void appendingManyEntriesOneByOneShouldKeepLookupsAndPaths() {
		SessionTree tree = chain();
		List<String> appended = new ArrayList<>();
		for (int i = 0; i < 2_000; i++) {
			List<EntryLine> lines = tree.prepareAppend(drafts("{'type':'custom','customType':'n" + i + "'}"),
					NOW.plusSeconds(i));
			tree.append(lines);
			appended.add(lines.get(0).id());
		}
		assertThat(tree.size()).isEqualTo(2_003);
		assertThat(appended).doesNotHaveDuplicates();
		String parent = "c";
		for (String id : appended) {
			assertThat(tree.getEntry(id).orElseThrow().parentId()).isEqualTo(parent);
			parent = id;
		}
		assertThat(tree.getLeafPath()).hasSize(2_003);
		assertThat(tree.getTree().nodes()).hasSize(2_003);
	}

	@Test
	void appendingABatchShouldChainItFromTheLeafAndLeaveTheLeafOnItsLastEntry() {
		SessionTree tree = chain();
		tree.branch("b");
		List<EntryLine> lines = tree.prepareAppend(drafts("{'type':'message','message':{'role':'user','content':'1'}}",
				"{'type':'thinking_level_change','thinkingLevel':'high'}",
				"{'type':'message','message':{'role':'user','content':'3'}}"), NOW);
		assertThat(lines.get(0).parentId()).isEqualTo("b");
		assertThat(lines.get(1).parentId()).isEqualTo(lines.get(0).id());
		assertThat(lines.get(2).parentId()).isEqualTo(lines.get(1).id());
		tree.append(lines);
		assertThat(tree.leafId()).isEqualTo(lines.get(2).id());
		assertThat(ids(tree.getLeafPath())).containsExactly("a", "b", lines.get(0).id(), lines.get(1).id(),
				lines.get(2).id());
		assertThat(ids(tree.getChildren("b"))).containsExactly("c", lines.get(0).id());
	}

}

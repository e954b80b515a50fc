package dev.arbor.session;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static dev.arbor.session.Entries.arr;
import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.entry;
import static dev.arbor.session.Entries.ids;
import static dev.arbor.session.Entries.obj;
import static dev.arbor.session.Entries.textBlock;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Planning a navigation (docs/SESSION-FORMAT.md#navigation): the common ancestor, the abandoned entries, where the
 * leaf goes and the text handed back to the editor, worked out without changing the tree.
 */
class NavigationPlanTests {

	/**
	 * <pre>
	 * u1 (user, "hello")
	 * └── a1
	 *     ├── u2 (user, text blocks "sec" + "ond")
	 *     │   └── a2
	 *     │       └── u3 (user, string content)
	 *     │           └── a3   ← leaf
	 *     └── c1 (custom_message, string content)
	 *         └── a4
	 *             └── c2 (custom_message, block content)
	 * </pre>
	 */
	private static SessionTree branched() {
		SessionTree tree = tree(user("u1", null, at(0), "hello"), assistant("a1", "u1", at(1), "anthropic", "claude", "hi"),
				entry(EntryTypes.MESSAGE, "u2", "a1", at(2), "message",
						obj("role", "user", "content", arr(textBlock("sec"), textBlock("ond")))),
				assistant("a2", "u2", at(3), "anthropic", "claude", "two"),
				entry(EntryTypes.MESSAGE, "u3", "a2", at(4), "message", obj("role", "user", "content", "plain text")),
				assistant("a3", "u3", at(5), "anthropic", "claude", "three"),
				entry(EntryTypes.CUSTOM_MESSAGE, "c1", "a1", at(6), "customType", "note", "content", "custom text",
						"display", true),
				assistant("a4", "c1", at(7), "anthropic", "claude", "four"),
				entry(EntryTypes.CUSTOM_MESSAGE, "c2", "a4", at(8), "customType", "note", "content",
						arr(textBlock("A"), obj("type", "image", "data", "aGk=", "mimeType", "image/png"), textBlock("B"),
								obj("type", "text"), obj("type", "thinking", "text", "hidden"), textBlock("C")),
						"display", false));
		tree.branch("a3");
		return tree;
	}

	@Test
	void ofWhenTargetIsTheRootUserMessageShouldResetTheLeafAndReturnItsText() {
		NavigationPlan plan = NavigationPlan.of(branched(), "u1");
		assertThat(plan.targetId()).isEqualTo("u1");
		assertThat(plan.oldLeafId()).isEqualTo("a3");
		assertThat(plan.commonAncestorId()).isEqualTo("u1");
		assertThat(ids(plan.entriesToSummarize())).containsExactly("a1", "u2", "a2", "u3", "a3");
		assertThat(plan.entryIdsToSummarize()).containsExactly("a1", "u2", "a2", "u3", "a3");
		assertThat(plan.newLeafId()).isNull();
		assertThat(plan.editorText()).isEqualTo("hello");
		assertThat(plan.noOp()).isFalse();
	}

	@Test
	void ofWhenTargetIsAnAssistantEntryOnAnotherBranchShouldMoveTheLeafOntoItWithoutText() {
		NavigationPlan plan = NavigationPlan.of(branched(), "a4");
		assertThat(plan.commonAncestorId()).isEqualTo("a1");
		assertThat(ids(plan.entriesToSummarize())).containsExactly("u2", "a2", "u3", "a3");
		assertThat(plan.newLeafId()).isEqualTo("a4");
		assertThat(plan.editorText()).isNull();
		assertThat(plan.noOp()).isFalse();
	}

	@Test
	void ofWhenTargetIsAnAssistantEntryOnTheLeafPathShouldAbandonOnlyWhatIsBelowIt() {
		NavigationPlan plan = NavigationPlan.of(branched(), "a2");
		assertThat(plan.commonAncestorId()).isEqualTo("a2");
		assertThat(ids(plan.entriesToSummarize())).containsExactly("u3", "a3");
		assertThat(plan.newLeafId()).isEqualTo("a2");
		assertThat(plan.editorText()).isNull();
	}

	@Test
	void ofWhenTargetIsAUserMessageInTheMiddleShouldMoveTheLeafToItsParentAndJoinItsTextBlocks() {
		NavigationPlan plan = NavigationPlan.of(branched(), "u2");
		assertThat(plan.commonAncestorId()).isEqualTo("u2"); // the target itself counts
		assertThat(ids(plan.entriesToSummarize())).containsExactly("a2", "u3", "a3");
		assertThat(plan.newLeafId()).isEqualTo("a1");
		assertThat(plan.editorText()).isEqualTo("second");
	}

	@Test
	void ofWhenTargetIsAUserMessageWithStringContentShouldReturnTheStringAsIs() {
		NavigationPlan plan = NavigationPlan.of(branched(), "u3");
		assertThat(plan.commonAncestorId()).isEqualTo("u3");
		assertThat(ids(plan.entriesToSummarize())).containsExactly("a3");
		assertThat(plan.newLeafId()).isEqualTo("a2");
		assertThat(plan.editorText()).isEqualTo("plain text");
	}

	@Test
	void ofWhenTargetIsACustomMessageWithStringContentShouldMoveTheLeafToItsParentWithItsText() {
		NavigationPlan plan = NavigationPlan.of(branched(), "c1");
		assertThat(plan.commonAncestorId()).isEqualTo("a1");
		assertThat(ids(plan.entriesToSummarize())).containsExactly("u2", "a2", "u3", "a3");
		assertThat(plan.newLeafId()).isEqualTo("a1");
		assertThat(plan.editorText()).isEqualTo("custom text");
	}

	@Test
	void ofWhenTargetIsACustomMessageWithBlocksShouldJoinTheTextBlocksAndSkipTheOthers() {
		NavigationPlan plan = NavigationPlan.of(branched(), "c2");
		assertThat(plan.commonAncestorId()).isEqualTo("a1");
		assertThat(ids(plan.entriesToSummarize())).containsExactly("u2", "a2", "u3", "a3");
		assertThat(plan.newLeafId()).isEqualTo("a4");
		assertThat(plan.editorText()).isEqualTo("ABC");
	}

	@Test
	void ofWhenTargetIsTheLeafShouldBeANoOpWithNothingToSummarize() {
		NavigationPlan plan = NavigationPlan.of(branched(), "a3");
		assertThat(plan.noOp()).isTrue();
		assertThat(plan.entriesToSummarize()).isEmpty();
		assertThat(plan.oldLeafId()).isEqualTo("a3");
		assertThat(plan.newLeafId()).isEqualTo("a3");
		assertThat(plan.commonAncestorId()).isEqualTo("a3");
		assertThat(plan.editorText()).isNull();
	}

	@Test
	void ofWhenTheLeafIsAUserMessageAndTheTargetShouldBeANoOp() {
		SessionTree tree = branched();
		tree.branch("u3");
		NavigationPlan plan = NavigationPlan.of(tree, "u3");
		assertThat(plan.noOp()).isTrue();
		assertThat(plan.newLeafId()).isEqualTo("u3");
		assertThat(plan.entriesToSummarize()).isEmpty();
	}

	@Test
	void ofWhenTheOldLeafIsNullShouldSummarizeNothingAndHaveNoCommonAncestor() {
		SessionTree tree = branched();
		tree.resetLeaf();
		NavigationPlan plan = NavigationPlan.of(tree, "a4");
		assertThat(plan.oldLeafId()).isNull();
		assertThat(plan.commonAncestorId()).isNull();
		assertThat(plan.entriesToSummarize()).isEmpty();
		assertThat(plan.newLeafId()).isEqualTo("a4");
		assertThat(plan.noOp()).isFalse();
	}

	@Test
	void ofWhenTheOldLeafIsNullAndTargetIsTheRootUserMessageShouldStillReturnItsText() {
		SessionTree tree = branched();
		tree.resetLeaf();
		NavigationPlan plan = NavigationPlan.of(tree, "u1");
		assertThat(plan.noOp()).isFalse();
		assertThat(plan.commonAncestorId()).isNull();
		assertThat(plan.entriesToSummarize()).isEmpty();
		assertThat(plan.newLeafId()).isNull();
		assertThat(plan.editorText()).isEqualTo("hello");
	}

	@Test
	void ofWhenTargetIsUnderAnotherRootShouldAbandonTheWholeOldPath() {
		SessionTree tree = tree(user("r1", null, at(0), "one"), assistant("r1a", "r1", at(1), "p", "m", "one"),
				user("r2", null, at(2), "two"), assistant("r2a", "r2", at(3), "p", "m", "two"));
		tree.branch("r1a");
		NavigationPlan plan = NavigationPlan.of(tree, "r2a");
		assertThat(plan.commonAncestorId()).isNull();
		assertThat(ids(plan.entriesToSummarize())).containsExactly("r1", "r1a");
		assertThat(plan.newLeafId()).isEqualTo("r2a");
		assertThat(plan.editorText()).isNull();
	}

	@Test
	void ofWhenTargetIsAnotherRootUserMessageShouldAbandonTheWholeOldPathAndResetTheLeaf() {
		SessionTree tree = tree(user("r1", null, at(0), "one"), assistant("r1a", "r1", at(1), "p", "m", "one"),
				user("r2", null, at(2), "two"));
		tree.branch("r1a");
		NavigationPlan plan = NavigationPlan.of(tree, "r2");
		assertThat(plan.commonAncestorId()).isNull();
		assertThat(ids(plan.entriesToSummarize())).containsExactly("r1", "r1a");
		assertThat(plan.newLeafId()).isNull();
		assertThat(plan.editorText()).isEqualTo("two");
	}

	@Test
	void ofWhenTargetIsUnknownShouldSayEntryNotFound() {
		assertThatExceptionOfType(EntryNotFoundException.class).isThrownBy(() -> NavigationPlan.of(branched(), "zzz"))
			.withMessage("Entry zzz not found")
			.satisfies((ex) -> assertThat(ex.entryId()).isEqualTo("zzz"));
	}

	@Test
	void ofWhenParentsFormACycleShouldTerminateAndListEachAbandonedEntryOnce() {
		// x and y are each other's parent; t hangs off x. r is a separate root.
		SessionTree tree = tree(user("r", null, at(0), "root"), assistant("ra", "r", at(1), "p", "m", "ra"),
				user("x", "y", at(2), "x text"), assistant("y", "x", at(3), "p", "m", "y"),
				assistant("t", "x", at(4), "p", "m", "t"));
		tree.branch("t");
		NavigationPlan toOtherRoot = assertTimeoutPreemptively(Duration.ofSeconds(10),
				() -> NavigationPlan.of(tree, "ra"));
		assertThat(toOtherRoot.commonAncestorId()).isNull();
		assertThat(ids(toOtherRoot.entriesToSummarize())).containsExactly("y", "x", "t");
		assertThat(toOtherRoot.newLeafId()).isEqualTo("ra");
		NavigationPlan intoCycle = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> NavigationPlan.of(tree, "y"));
		assertThat(intoCycle.commonAncestorId()).isEqualTo("y");
		assertThat(ids(intoCycle.entriesToSummarize())).containsExactly("x", "t");
		assertThat(intoCycle.newLeafId()).isEqualTo("y");
		NavigationPlan toCycleUser = assertTimeoutPreemptively(Duration.ofSeconds(10),
				() -> NavigationPlan.of(tree, "x"));
		assertThat(toCycleUser.commonAncestorId()).isEqualTo("x");
		assertThat(ids(toCycleUser.entriesToSummarize())).containsExactly("t");
		assertThat(toCycleUser.newLeafId()).isEqualTo("y");
		assertThat(toCycleUser.editorText()).isEqualTo("x text");
	}

	@Test
	void ofWhenTheLeafIsInACycleAndTargetIsOnItShouldTerminate() {
		SessionTree tree = tree(user("a", "c", at(0), "a"), user("b", "a", at(1), "b"), user("c", "b", at(2), "c"));
		tree.branch("c");
		NavigationPlan plan = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> NavigationPlan.of(tree, "b"));
		assertThat(plan.commonAncestorId()).isEqualTo("b");
		assertThat(ids(plan.entriesToSummarize())).containsExactly("c");
		assertThat(plan.newLeafId()).isEqualTo("a");
		assertThat(plan.editorText()).isEqualTo("b");
	}

	@Test
	void editorTextWhenContentIsMissingOrNotTextShouldBeEmpty() {
		EntryLine noContent = entry(EntryTypes.CUSTOM_MESSAGE, "c", null, at(0), "customType", "note", "display", true);
		EntryLine numberContent = entry(EntryTypes.MESSAGE, "m", null, at(0), "message",
				obj("role", "user", "content", 42));
		EntryLine onlyImages = entry(EntryTypes.MESSAGE, "i", null, at(0), "message",
				obj("role", "user", "content", arr(obj("type", "image", "data", "aGk=", "mimeType", "image/png"))));
		assertThat(NavigationPlan.editorText(noContent)).isEmpty();
		assertThat(NavigationPlan.editorText(numberContent)).isEmpty();
		assertThat(NavigationPlan.editorText(onlyImages)).isEmpty();
	}

	@Test
	void isUserMessageShouldAcceptOnlyMessagesWithTheUserRole() {
		SessionTree tree = branched();
		assertThat(NavigationPlan.isUserMessage(tree.requireEntry("u1"))).isTrue();
		assertThat(NavigationPlan.isUserMessage(tree.requireEntry("a1"))).isFalse();
		assertThat(NavigationPlan.isUserMessage(tree.requireEntry("c1"))).isFalse();
	}

	// A parentId naming no loaded entry, or the entry's own id, makes the entry a root
	// (docs/SESSION-FORMAT.md#the-tree), so navigating to such a user message resets the leaf
	// (docs/SESSION-FORMAT.md#navigation, step 3), as navigating to any root user message does.

	@Test
	void ofWhenTargetIsAUserMessageWithADanglingParentShouldTreatItAsARootAndResetTheLeaf() {
		SessionTree tree = tree(user("r", null, at(0), "root"), assistant("ra", "r", at(1), "p", "m", "ra"),
				user("d", "nowhere", at(2), "dangling"));
		tree.branch("ra");
		NavigationPlan plan = NavigationPlan.of(tree, "d");
		assertThat(plan.commonAncestorId()).isNull();
		assertThat(ids(plan.entriesToSummarize())).containsExactly("r", "ra");
		assertThat(plan.editorText()).isEqualTo("dangling");
		assertThat(plan.newLeafId()).as("a dangling parent makes a root: the new leaf is null").isNull();
	}

	@Test
	void ofWhenTargetIsAUserMessageThatIsItsOwnParentShouldTreatItAsARootAndResetTheLeaf() {
		SessionTree tree = tree(user("r", null, at(0), "root"), assistant("ra", "r", at(1), "p", "m", "ra"),
				user("s", "s", at(2), "self"));
		tree.branch("ra");
		NavigationPlan plan = NavigationPlan.of(tree, "s");
		assertThat(plan.commonAncestorId()).isNull();
		assertThat(ids(plan.entriesToSummarize())).containsExactly("r", "ra");
		assertThat(plan.editorText()).isEqualTo("self");
		assertThat(plan.newLeafId()).as("its own id as parent makes a root: the new leaf is null").isNull();
	}

}

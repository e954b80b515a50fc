package dev.arbor.session;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.ids;
import static dev.arbor.session.Entries.label;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * New sessions made from an existing one (docs/SESSION-FORMAT.md#branching-and-forking): {@code createBranchedSession}
 * copies one path without its labels and re-creates the labels that still apply; a fork copies everything.
 */
class SessionCopiesTests {

	private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

	private static final String NEW_ID = "0195a000-0000-7000-8000-0000000000aa";

	/**
	 * <pre>
	 * a
	 * ├── b
	 * │   └── l1 (label a = "start")
	 * │       └── c
	 * │           └── d
	 * └── x
	 *     └── l2 (label x = "side")
	 *         └── l3 (label c = "question")
	 *             └── l4 (label b = "tmp")
	 *                 └── l5 (label b cleared)   ← leaf
	 * </pre>
	 */
	private static SessionTree labelled() {
		return tree(user("a", null, at(0), "first"), assistant("b", "a", at(1), "anthropic", "claude", "answer"),
				label("l1", "b", at(2), "a", "start"), user("c", "l1", at(3), "second"),
				assistant("d", "c", at(4), "anthropic", "claude", "answer two"), user("x", "a", at(5), "side"),
				label("l2", "x", at(6), "x", "side"), label("l3", "l2", at(7), "c", "question"),
				label("l4", "l3", at(8), "b", "tmp"), label("l5", "l4", at(9), "b", ""));
	}

	@Test
	void createBranchedSessionShouldCopyThePathWithoutLabelsAndRecreateTheLabelsOnIt() {
		SessionTree source = labelled();
		NewSession copy = SessionCopies.createBranchedSession(source, "d", NEW_ID, NOW);
		List<EntryLine> entries = copy.entries();
		assertThat(entries).hasSize(6);
		assertThat(ids(entries).subList(0, 4)).containsExactly("a", "b", "c", "d");
		EntryLine first = entries.get(4);
		EntryLine second = entries.get(5);
		assertThat(first.type()).isEqualTo("label");
		assertThat(first.id()).matches("[0-9a-f]{8}").isNotIn("a", "b", "c", "d");
		assertThat(first.parentId()).isEqualTo("d");
		assertThat(first.toNode().get("targetId").asString()).isEqualTo("a");
		assertThat(first.toNode().get("label").asString()).isEqualTo("start");
		assertThat(second.type()).isEqualTo("label");
		assertThat(second.id()).matches("[0-9a-f]{8}").isNotIn("a", "b", "c", "d", first.id());
		assertThat(second.parentId()).isEqualTo(first.id());
		assertThat(second.toNode().get("targetId").asString()).isEqualTo("c");
		assertThat(second.toNode().get("label").asString()).isEqualTo("question");
		assertThat(copy.leafId()).isEqualTo(second.id());
	}

	@Test
	void createBranchedSessionShouldKeepTheTimeEachLabelWasSet() {
		NewSession copy = SessionCopies.createBranchedSession(labelled(), "d", NEW_ID, NOW);
		assertThat(copy.entries().get(4).toNode().get("timestamp").asString()).isEqualTo(at(2));
		assertThat(copy.entries().get(5).toNode().get("timestamp").asString()).isEqualTo(at(7));
	}

	@Test
	void createBranchedSessionWhenALabelIsSetAgainShouldRecreateLabelsInTheOrderTheyWereFirstSet() {
		SessionTree source = tree(user("a", null, at(0), "first"), user("b", "a", at(1), "second"),
				label("l1", "b", at(2), "a", "one"), label("l2", "l1", at(3), "b", "two"),
				label("l3", "l2", at(4), "a", "one again"));
		NewSession copy = SessionCopies.createBranchedSession(source, "b", NEW_ID, NOW);
		assertThat(copy.entries().subList(2, 4)).extracting(entry -> entry.toNode().get("label").asString())
			.containsExactly("one again", "two");
		assertThat(source.getLabels()).containsExactly(Map.entry("a", "one again"), Map.entry("b", "two"));
	}

	@Test
	void createBranchedSessionShouldCopyEntriesAsStored() {
		SessionTree source = labelled();
		NewSession copy = SessionCopies.createBranchedSession(source, "d", NEW_ID, NOW);
		assertThat(copy.entries().get(0)).isEqualTo(source.getEntry("a").orElseThrow());
		assertThat(copy.entries().get(1)).isEqualTo(source.getEntry("b").orElseThrow());
		assertThat(copy.entries().get(3)).isEqualTo(source.getEntry("d").orElseThrow());
	}

	@Test
	void createBranchedSessionWhenAParentWasADroppedLabelShouldRelinkTheEntryToTheEntryBefore() {
		SessionTree source = labelled();
		EntryLine copied = SessionCopies.createBranchedSession(source, "d", NEW_ID, NOW).entries().get(2);
		assertThat(copied.id()).isEqualTo("c");
		assertThat(copied.parentId()).isEqualTo("b");
		ObjectNode expected = source.getEntry("c").orElseThrow().toNode();
		expected.put("parentId", "b");
		assertThat(copied.toNode()).isEqualTo(expected);
	}

	@Test
	void createBranchedSessionWhenLabelsFollowEachOtherShouldRelinkToTheLastCopiedEntry() {
		SessionTree source = tree(user("a", null, at(0), "first"), label("l1", "a", at(1), "a", "one"),
				label("l2", "l1", at(2), "a", "two"), user("b", "l2", at(3), "second"));
		NewSession copy = SessionCopies.createBranchedSession(source, "b", NEW_ID, NOW);
		assertThat(ids(copy.entries()).subList(0, 2)).containsExactly("a", "b");
		assertThat(copy.entries().get(1).parentId()).isEqualTo("a");
		assertThat(copy.entries()).hasSize(3);
		assertThat(copy.entries().get(2).toNode().get("label").asString()).isEqualTo("two");
	}

	@Test
	void createBranchedSessionShouldBeOneChainThatReloadsWithTheSameLabels() {
		NewSession copy = SessionCopies.createBranchedSession(labelled(), "d", NEW_ID, NOW);
		SessionTree reloaded = SessionTree.of(copy.header(), null, copy.entries());
		assertThat(reloaded.leafId()).isEqualTo(copy.leafId());
		assertThat(ids(reloaded.getPath(copy.leafId()))).containsExactlyElementsOf(ids(copy.entries()));
		assertThat(reloaded.getTree().rootIds()).containsExactly("a");
		assertThat(reloaded.getLabel("a")).isEqualTo("start");
		assertThat(reloaded.getLabel("c")).isEqualTo("question");
		assertThat(reloaded.getLabel("b")).isNull();
		assertThat(reloaded.getLabels()).hasSize(2);
	}

	@Test
	void createBranchedSessionShouldWriteANewHeaderNamingTheSourceSession() {
		NewSession copy = SessionCopies.createBranchedSession(labelled(), "d", NEW_ID, NOW);
		SessionHeader header = copy.header();
		assertThat(header.id()).isEqualTo(NEW_ID);
		assertThat(header.version()).isEqualTo(3);
		assertThat(header.parentSession()).isEqualTo(Entries.SESSION_ID);
		assertThat(header.cwd()).isEqualTo(Entries.CWD);
		assertThat(header.timestamp()).isEqualTo("2025-03-01T10:00:00.000Z");
	}

	@Test
	void createBranchedSessionShouldLeaveTheSourceUnchanged() {
		SessionTree source = labelled();
		List<EntryLine> before = List.copyOf(source.getEntries());
		source.branch("c");
		SessionCopies.createBranchedSession(source, "d", NEW_ID, NOW);
		assertThat(source.getEntries()).containsExactlyElementsOf(before);
		assertThat(source.leafId()).isEqualTo("c");
		assertThat(source.sessionId()).isEqualTo(Entries.SESSION_ID);
		assertThat(source.getLabel("a")).isEqualTo("start");
	}

	@Test
	void createBranchedSessionShouldRecreateOnlyLabelsWhoseTargetIsOnThePath() {
		NewSession copy = SessionCopies.createBranchedSession(labelled(), "b", NEW_ID, NOW);
		assertThat(ids(copy.entries()).subList(0, 2)).containsExactly("a", "b");
		assertThat(copy.entries()).hasSize(3);
		EntryLine label = copy.entries().get(2);
		assertThat(label.parentId()).isEqualTo("b");
		assertThat(label.toNode().get("targetId").asString()).isEqualTo("a");
	}

	@Test
	void createBranchedSessionWhenNoLabelAppliesShouldLeaveTheLeafOnTheLastCopiedEntry() {
		SessionTree source = tree(user("a", null, at(0), "first"), user("b", "a", at(1), "second"),
				user("c", "a", at(2), "other"), label("l", "c", at(3), "c", "elsewhere"));
		NewSession copy = SessionCopies.createBranchedSession(source, "b", NEW_ID, NOW);
		assertThat(ids(copy.entries())).containsExactly("a", "b");
		assertThat(copy.leafId()).isEqualTo("b");
	}

	@Test
	void createBranchedSessionAtALabelShouldDropItAndRecreateTheLabel() {
		NewSession copy = SessionCopies.createBranchedSession(labelled(), "l1", NEW_ID, NOW);
		assertThat(ids(copy.entries()).subList(0, 2)).containsExactly("a", "b");
		assertThat(copy.entries()).hasSize(3);
		assertThat(copy.entries().get(2).toNode().get("label").asString()).isEqualTo("start");
		assertThat(copy.leafId()).isEqualTo(copy.entries().get(2).id());
	}

	@Test
	void createBranchedSessionWhenLeafIsUnknownShouldFailWithEntryNotFound() {
		assertThatExceptionOfType(EntryNotFoundException.class)
			.isThrownBy(() -> SessionCopies.createBranchedSession(labelled(), "nope", NEW_ID, NOW))
			.withMessage("Entry nope not found");
	}

	@Test
	void forkShouldCopyEveryEntryOfEveryBranchWithIdsLabelsAndLeaf() {
		SessionTree source = labelled();
		source.branch("c");
		NewSession fork = SessionCopies.fork(source, NEW_ID, NOW);
		assertThat(fork.entries()).containsExactlyElementsOf(source.getEntries());
		assertThat(fork.leafId()).isEqualTo("c");
		assertThat(fork.header().id()).isEqualTo(NEW_ID);
		assertThat(fork.header().parentSession()).isEqualTo(Entries.SESSION_ID);
		assertThat(fork.header().cwd()).isEqualTo(Entries.CWD);
		SessionTree reloaded = SessionTree.of(fork.header(), null, fork.entries());
		assertThat(reloaded.getLabels()).isEqualTo(source.getLabels());
	}

	@Test
	void forkShouldKeepTheTitle() {
		SessionHeader header = SessionHeader.create(Entries.SESSION_ID, Entries.T0, Entries.CWD, "Refactor", null);
		SessionTree source = SessionTree.of(header, null, List.of(user("a", null, at(0), "hi")));
		assertThat(SessionCopies.fork(source, NEW_ID, NOW).header().title()).isEqualTo("Refactor");
	}

	@Test
	void forkWhenLeafIsResetShouldKeepTheNullLeaf() {
		SessionTree source = labelled();
		source.resetLeaf();
		NewSession fork = SessionCopies.fork(source, NEW_ID, NOW);
		assertThat(fork.leafId()).isNull();
		assertThat(fork.entries()).hasSize(10);
	}

}

package dev.arbor.storage.file;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.arbor.TestSessions;
import dev.arbor.session.ContextMessage;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.SessionContext;
import dev.arbor.session.SessionLines;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.MalformedLine;
import dev.arbor.storage.SessionFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The project's own session files ({@code src/test/resources/sessions}) load with Arbor's reader and have the shapes
 * their README describes, so the tests built on them test what they claim to.
 */
class TestSessionLoadingTests {

	/** The v3 file's leaf (its last entry, a {@code custom} entry) and its only root. */
	private static final String V3_LEAF = "992acf8d";

	private static final String V3_ROOT = "51375eee";

	private static final int V1_ENTRIES = 49;

	@TempDir
	Path dir;

	@Test
	void loadV3ShouldHaveTheTitleSlotAndTheEntriesOfEveryType() throws IOException {
		LoadedSession loaded = SessionFileReader.read(TestSessions.copy(TestSessions.OMP_V3, this.dir));
		SessionTree tree = loaded.tree();
		assertThat(loaded.fileVersion()).isEqualTo(3);
		assertThat(loaded.malformedLines()).isEmpty();
		assertThat(loaded.needsRewrite()).isFalse();
		assertThat(tree.sessionId()).isEqualTo(TestSessions.SESSION_ID);
		assertThat(tree.titleSlot()).isNotNull();
		assertThat(tree.titleSlot().line().bytes()).hasSize(255);
		assertThat(tree.header().title()).isNull();
		assertThat(tree.title()).isEqualTo("RSS and Atom feeds for quillmark");
		assertThat(tree.size()).isEqualTo(132);
		assertThat(countByType(tree)).containsExactlyInAnyOrderEntriesOf(Map.of("message", 113L,
				"thinking_level_change", 5L, "model_change", 3L, "compaction", 2L, "custom", 2L, "label", 4L,
				"branch_summary", 2L, "custom_message", 1L));
		assertThat(countByRole(tree)).containsExactlyInAnyOrderEntriesOf(
				Map.of("user", 17L, "assistant", 56L, "toolResult", 40L));
		assertThat(tree.getEntries()).filteredOn(entry -> entry.json().contains("\"type\":\"image\""))
			.extracting(EntryLine::messageRole)
			.containsExactly("user", "toolResult");
	}

	@Test
	void loadV3ShouldGiveThreeBranchPointsOneRootTheLabelsAndTheLeaf() throws IOException {
		SessionTree tree = SessionFileReader.read(TestSessions.copy(TestSessions.OMP_V3, this.dir)).tree();
		Map<String, List<String>> branchPoints = new LinkedHashMap<>();
		for (EntryLine entry : tree.getEntries()) {
			List<String> children = SessionFiles.ids(tree.getChildren(entry.id()));
			if (children.size() > 1) {
				branchPoints.put(entry.id(), children);
			}
		}
		// A label whose branch was given up (summarized), a failed answer retried with an edited message, and a
		// branch given up with a summary from an extension.
		assertThat(branchPoints).containsExactly(Map.entry("cde59dff", List.of("46123e84", "653bc9e4")),
				Map.entry("ae9ecf53", List.of("28268b75", "3058d46d")),
				Map.entry("98abed60", List.of("4af4f4ce", "39f892bc")));
		assertThat(tree.getEntry("653bc9e4")).get().extracting(EntryLine::type).isEqualTo("branch_summary");
		assertThat(tree.getEntry("39f892bc").get().toNode().get("fromExtension").asBoolean()).isTrue();
		assertThat(tree.getTree().rootIds()).containsExactly(V3_ROOT);
		assertThat(tree.leafId()).isEqualTo(V3_LEAF);
		assertThat(tree.getLeafPath()).hasSize(116);
		assertThat(tree.getLeafPath().get(0).id()).isEqualTo(V3_ROOT);
		// feed-html was set on b58b03f2 and cleared again.
		assertThat(tree.getLabels()).containsExactly(Map.entry("3058d46d", "self-link"), Map.entry("45ad1d5b", "done"));
	}

	@Test
	void buildSessionContextOfV3ShouldStartAtTheLatestCompactionAndTrackModelsAndThinkingLevel() throws IOException {
		SessionContext context = SessionFileReader.read(TestSessions.copy(TestSessions.OMP_V3, this.dir))
			.tree()
			.buildSessionContext();
		assertThat(context.leafId()).isEqualTo(V3_LEAF);
		assertThat(context.thinkingLevel()).isEqualTo("medium");
		assertThat(context.models()).containsExactlyInAnyOrderEntriesOf(
				Map.of("default", "anthropic/claude-sonnet-4-5", "smol", "anthropic/claude-haiku-4-5"));
		// The compaction's summary, its kept entries from c15e5132, then what followed, a branch summary included.
		assertThat(context.messages()).extracting(ContextMessage::role)
			.containsExactly("compactionSummary", "user", "assistant", "toolResult", "assistant", "user", "assistant",
					"toolResult", "assistant", "user", "assistant", "toolResult", "assistant", "toolResult",
					"assistant", "toolResult", "assistant", "toolResult", "assistant", "branchSummary", "user",
					"assistant", "toolResult", "assistant");
		assertThat(((ContextMessage.Stored) context.messages().get(1)).entry().id()).isEqualTo("c15e5132");
	}

	@Test
	void writeToWhenV3IsUnchangedShouldGiveTheFileBytes() throws IOException {
		SessionTree tree = SessionFileReader.read(TestSessions.copy(TestSessions.OMP_V3, this.dir)).tree();
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		SessionLines.of(tree).writeTo(out);
		assertThat(out.toByteArray()).isEqualTo(TestSessions.bytes(TestSessions.OMP_V3));
	}

	@Test
	void loadV1ShouldMigrateToOneChainWithStableIdsAndTheCompactionsFirstKeptEntry() throws IOException {
		Path file = TestSessions.copy(TestSessions.PI_V1, this.dir);
		LoadedSession loaded = SessionFileReader.read(file);
		SessionTree tree = loaded.tree();
		assertThat(loaded.fileVersion()).isEqualTo(1);
		assertThat(loaded.needsRewrite()).isTrue();
		assertThat(tree.header().version()).isEqualTo(3);
		assertThat(tree.titleSlot()).isNull();
		assertThat(tree.sessionId()).isEqualTo(TestSessions.SESSION_ID);
		assertThat(countByType(tree)).containsExactlyInAnyOrderEntriesOf(
				Map.of("message", 45L, "thinking_level_change", 2L, "model_change", 1L, "compaction", 1L));
		assertThat(countByRole(tree)).containsExactlyInAnyOrderEntriesOf(
				Map.of("user", 6L, "assistant", 22L, "toolResult", 17L));
		List<EntryLine> entries = tree.getEntries();
		assertThat(entries).hasSize(V1_ENTRIES);
		assertThat(SessionFiles.ids(entries)).doesNotHaveDuplicates()
			.allMatch(id -> id.matches("[0-9a-f]{8}"))
			.isEqualTo(SessionFiles.ids(SessionFileReader.read(file).tree().getEntries()));
		assertThat(entries.get(0).parentId()).isNull();
		for (int i = 1; i < entries.size(); i++) {
			assertThat(entries.get(i).parentId()).isEqualTo(entries.get(i - 1).id());
		}
		assertThat(tree.leafId()).isEqualTo(entries.get(V1_ENTRIES - 1).id());
		// firstKeptEntryIndex 30 counts the header as 0: the 30th entry, the user message asking for a test.
		ObjectNode compaction = entries.get(35).toNode();
		assertThat(Json.text(compaction, "type")).isEqualTo("compaction");
		assertThat(compaction.has("firstKeptEntryIndex")).isFalse();
		assertThat(Json.text(compaction, "firstKeptEntryId")).isEqualTo(entries.get(29).id());
		assertThat(entries.get(29).messageRole()).isEqualTo("user");
		assertThat(Files.readAllBytes(file)).isEqualTo(TestSessions.bytes(TestSessions.PI_V1));
	}

	@Test
	void loadV1ShouldGiveTheConversationTheV3FileBeginsWith() throws IOException {
		List<EntryLine> v1 = SessionFileReader.read(TestSessions.copy(TestSessions.PI_V1, this.dir)).tree().getEntries();
		List<EntryLine> v3 = SessionFileReader.read(TestSessions.copy(TestSessions.OMP_V3, this.dir))
			.tree()
			.getEntries();
		for (int i = 0; i < v1.size(); i++) {
			assertThat(withoutIds(v1.get(i))).as("entry %d", i).isEqualTo(withoutIds(v3.get(i)));
		}
	}

	@Test
	void firstAppendToV1ShouldRewriteItAsVersion3WithTheSameIds() throws IOException {
		Path file = TestSessions.copy(TestSessions.PI_V1, this.dir);
		List<String> ids;
		try (FileSessionStore store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC())) {
			ids = SessionFiles.idsOf(store, TestSessions.SESSION_ID, SessionTree::getEntries);
			store.append(TestSessions.SESSION_ID, ExpectedLeaf.of(ids.get(V1_ENTRIES - 1)),
					List.of(SessionFiles.userMessage("and an Atom feed?")));
		}
		LoadedSession reloaded = SessionFileReader.read(file);
		assertThat(reloaded.fileVersion()).isEqualTo(3);
		assertThat(reloaded.needsRewrite()).isFalse();
		List<EntryLine> entries = reloaded.tree().getEntries();
		assertThat(entries).hasSize(V1_ENTRIES + 1);
		assertThat(SessionFiles.ids(entries.subList(0, V1_ENTRIES))).isEqualTo(ids);
		assertThat(entries.get(V1_ENTRIES).parentId()).isEqualTo(ids.get(V1_ENTRIES - 1));
		assertThat(SessionFiles.backups(this.dir)).isEmpty();
	}

	@Test
	void loadV2ShouldKeepItsTreeAndIdsAndGiveHookMessagesTheRoleCustom() throws IOException {
		Path file = TestSessions.copy(TestSessions.PI_V2, this.dir);
		LoadedSession loaded = SessionFileReader.read(file);
		SessionTree tree = loaded.tree();
		assertThat(loaded.fileVersion()).isEqualTo(2);
		assertThat(loaded.needsRewrite()).isTrue();
		assertThat(loaded.malformedLines()).isEmpty();
		assertThat(tree.header().version()).isEqualTo(3);
		assertThat(tree.sessionId()).isEqualTo(TestSessions.PI_V2_SESSION_ID);
		assertThat(tree.size()).isEqualTo(19);
		assertThat(countByType(tree)).containsExactlyInAnyOrderEntriesOf(Map.of("message", 14L, "model_change", 1L,
				"thinking_level_change", 1L, "branch_summary", 1L, "label", 1L, "compaction", 1L));
		// Version 2 already has ids: migration keeps every one, and renames the hooks' role (2 -> 3).
		assertThat(SessionFiles.ids(tree.getEntries())).allMatch(id -> id.matches("a1f000[0-9a-f]{2}"))
			.hasSize(19);
		assertThat(countByRole(tree)).containsExactlyInAnyOrderEntriesOf(
				Map.of("user", 3L, "assistant", 6L, "toolResult", 3L, "custom", 2L));
		assertThat(tree.getEntry("a1f00004").get().toNode().get("message").get("customType").asString())
			.isEqualTo("git_status");
		assertThat(SessionFiles.ids(tree.getChildren("a1f00005"))).containsExactly("a1f00006", "a1f0000a");
		assertThat(tree.leafId()).isEqualTo("a1f00013");
		assertThat(tree.getLabels()).containsExactly(Map.entry("a1f00009", "dark-theme"));
		// The compaction keeps from the user message it names; the hook's message after it is in the context too.
		SessionContext context = tree.buildSessionContext();
		assertThat(context.messages()).extracting(ContextMessage::role)
			.containsExactly("compactionSummary", "user", "custom", "assistant", "toolResult", "assistant");
		assertThat(((ContextMessage.Stored) context.messages().get(1)).entry().id()).isEqualTo("a1f0000e");
		assertThat(Files.readAllBytes(file)).isEqualTo(TestSessions.bytes(TestSessions.PI_V2));
	}

	@Test
	void loadDamagedShouldSkipEachMalformedLineSayingWhyAndKeepTheGoodEntriesChained() throws IOException {
		Path file = TestSessions.copy(TestSessions.DAMAGED, this.dir);
		LoadedSession loaded = SessionFileReader.read(file);
		// Lines 4-10 (the header is line 1): a line cut off mid-write, an array, no type, no id, a second header,
		// Latin-1 bytes, an exponent no session file can hold; then the torn last line, read like any line.
		assertThat(loaded.malformedLines()).extracting(MalformedLine::lineNumber)
			.containsExactly(4, 5, 6, 7, 8, 9, 10, 13);
		assertThat(loaded.malformedLines()).extracting(MalformedLine::reason).allMatch(reason -> !reason.isBlank());
		assertThat(loaded.malformedLines().get(7).reason()).startsWith("torn last line");
		assertThat(loaded.needsRewrite()).isTrue();
		assertThat(loaded.needsBackup()).isTrue();
		SessionTree tree = loaded.tree();
		assertThat(tree.sessionId()).isEqualTo(TestSessions.DAMAGED_SESSION_ID);
		assertThat(SessionFiles.ids(tree.getLeafPath())).containsExactly("d0000001", "d0000002", "d0000003",
				"d0000004");
		assertThat(tree.size()).isEqualTo(4);
	}

	@Test
	void firstAppendToTheDamagedFileShouldBackItUpAndRewriteItWithoutTheDamage() throws IOException {
		Path file = TestSessions.copy(TestSessions.DAMAGED, this.dir);
		// Older than the torn-tail grace: the last line is a crash remnant, not someone's write in progress.
		Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofMinutes(5))));
		try (FileSessionStore store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC())) {
			store.append(TestSessions.DAMAGED_SESSION_ID, ExpectedLeaf.of("d0000004"),
					List.of(SessionFiles.userMessage("and the RSS feed?")));
		}
		assertThat(SessionFiles.backups(this.dir)).singleElement()
			.satisfies(backup -> assertThat(Files.readAllBytes(backup)).isEqualTo(TestSessions.bytes(TestSessions.DAMAGED)));
		LoadedSession reloaded = SessionFileReader.read(file);
		assertThat(reloaded.malformedLines()).isEmpty();
		assertThat(SessionFiles.ids(reloaded.tree().getEntries()).subList(0, 4)).containsExactly("d0000001",
				"d0000002", "d0000003", "d0000004");
		assertThat(reloaded.tree().size()).isEqualTo(5);
		assertThat(reloaded.tree().getEntry(reloaded.tree().leafId()).get().parentId()).isEqualTo("d0000004");
	}

	/** An entry without what migration assigns: ids, parent ids and the compaction's first kept entry. */
	private static ObjectNode withoutIds(EntryLine entry) {
		ObjectNode node = entry.toNode();
		node.remove(List.of("id", "parentId", "firstKeptEntryId"));
		return node;
	}

	private static Map<String, Long> countByType(SessionTree tree) {
		return tree.getEntries().stream().collect(Collectors.groupingBy(EntryLine::type, Collectors.counting()));
	}

	private static Map<String, Long> countByRole(SessionTree tree) {
		return tree.getEntries()
			.stream()
			.filter(entry -> entry.isType("message"))
			.map(EntryLine::messageRole)
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
	}

}

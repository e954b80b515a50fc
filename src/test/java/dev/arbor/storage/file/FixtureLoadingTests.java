package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.arbor.Fixtures;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.SessionLines;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real upstream files of {@code shared/fixtures} load, migrate and round-trip
 * (docs/SESSION-FORMAT.md#a-file-line-by-line and docs/SESSION-FORMAT.md#versions-and-migrations).
 */
class FixtureLoadingTests {

	private static final String SESSION_ID = "d703a1a9-1b7b-4fb1-b512-c9738b1fe617";

	@TempDir
	Path dir;

	@Test
	void loadV3WhenUnchangedShouldKeepIdsTitleSlotAndCounts() throws IOException {
		Path file = Fixtures.copy(Fixtures.OMP_V3, this.dir);
		LoadedSession loaded = SessionFileReader.read(file);
		SessionTree tree = loaded.tree();
		assertThat(loaded.fileVersion()).isEqualTo(3);
		assertThat(loaded.malformedLines()).isEmpty();
		assertThat(loaded.needsRewrite()).isFalse();
		assertThat(tree.sessionId()).isEqualTo(SESSION_ID);
		assertThat(tree.titleSlot()).isNotNull();
		assertThat(tree.title()).isNull(); // the slot's title is empty and the header has none
		assertThat(tree.size()).isEqualTo(1019);
		assertThat(countByType(tree)).containsExactlyInAnyOrderEntriesOf(
				Map.of("message", 914L, "thinking_level_change", 103L, "model_change", 1L, "custom", 1L));
		assertThat(countByRole(tree)).containsExactlyInAnyOrderEntriesOf(
				Map.of("user", 88L, "assistant", 453L, "toolResult", 373L));
		assertThat(tree.getEntries().get(0).id()).isEqualTo("663c75f5");
		assertThat(tree.leafId()).isEqualTo(tree.getEntries().get(1018).id());
	}

	@Test
	void loadWriteLoadWhenV3ShouldGiveEqualJsonPerEntry() throws IOException {
		Path file = Fixtures.copy(Fixtures.OMP_V3, this.dir);
		SessionTree first = SessionFileReader.read(file).tree();
		Path written = this.dir.resolve("written.jsonl");
		AtomicFiles.replace(written, SessionContent.of(SessionLines.of(first)));
		SessionTree second = SessionFileReader.read(written).tree();
		assertThat(second.size()).isEqualTo(first.size());
		List<EntryLine> before = first.getEntries();
		List<EntryLine> after = second.getEntries();
		for (int i = 0; i < before.size(); i++) {
			assertThat(after.get(i).toNode()).isEqualTo(before.get(i).toNode());
		}
		assertThat(second.header().toNode()).isEqualTo(first.header().toNode());
		// Nothing changed, so the file is byte-identical to the upstream one.
		assertThat(Files.readAllBytes(written)).isEqualTo(Files.readAllBytes(Fixtures.path(Fixtures.OMP_V3)));
	}

	@Test
	void loadV1ShouldMigrateToOneChainWithIdsStableAcrossLoads() throws IOException {
		Path file = Fixtures.copy(Fixtures.PI_V1, this.dir);
		byte[] original = Files.readAllBytes(file);
		SessionTree first = SessionFileReader.read(file).tree();
		SessionTree second = SessionFileReader.read(Fixtures.path(Fixtures.PI_V1)).tree();
		assertThat(first.size()).isEqualTo(1018);
		assertThat(first.header().version()).isEqualTo(3);
		assertThat(first.getEntries()).extracting(EntryLine::id)
			.containsExactlyElementsOf(second.getEntries().stream().map(EntryLine::id).toList())
			.doesNotHaveDuplicates()
			.allMatch(id -> id.matches("[0-9a-f]{8}"));
		List<EntryLine> entries = first.getEntries();
		assertThat(entries.get(0).parentId()).isNull();
		for (int i = 1; i < entries.size(); i++) {
			assertThat(entries.get(i).parentId()).isEqualTo(entries.get(i - 1).id());
		}
		assertThat(first.getPath(first.leafId())).hasSize(1018);
		assertThat(countByType(first)).containsExactlyInAnyOrderEntriesOf(
				Map.of("message", 914L, "thinking_level_change", 103L, "model_change", 1L));
		assertThat(Files.readAllBytes(file)).isEqualTo(original); // migrated only in memory until written
	}

	@Test
	void firstAppendToV1ShouldRewriteItAsVersion3WithTheSameIds() throws IOException {
		Fixtures.copy(Fixtures.PI_V1, this.dir);
		List<String> ids;
		try (FileSessionStore store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC())) {
			ids = store.read(SESSION_ID, tree -> tree.getEntries().stream().map(EntryLine::id).toList());
			store.append(SESSION_ID, ExpectedLeaf.of(ids.get(ids.size() - 1)),
					List.of(Json.parseObject("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"again\"}}".getBytes())));
		}
		LoadedSession reloaded = SessionFileReader.read(this.dir.resolve(Fixtures.PI_V1));
		assertThat(reloaded.fileVersion()).isEqualTo(3);
		assertThat(reloaded.needsRewrite()).isFalse();
		assertThat(reloaded.tree().getEntries()).hasSize(1019);
		assertThat(reloaded.tree().getEntries().subList(0, 1018)).extracting(EntryLine::id).containsExactlyElementsOf(ids);
		assertThat(reloaded.tree().getEntries().get(1018).parentId()).isEqualTo(ids.get(1017));
		assertThat(backups()).isEmpty(); // nothing was skipped, so nothing needed keeping
	}

	private List<Path> backups() throws IOException {
		try (var files = Files.list(this.dir)) {
			return files.filter(f -> f.getFileName().toString().endsWith(StorageFiles.BACKUP_SUFFIX)).toList();
		}
	}

	private static Map<String, Long> countByType(SessionTree tree) {
		return tree.getEntries().stream().collect(Collectors.groupingBy(EntryLine::type, Collectors.counting()));
	}

	private static Map<String, Long> countByRole(SessionTree tree) {
		return tree.getEntries()
			.stream()
			.filter(entry -> entry.isType("message"))
			.map(entry -> entry.messageHead().role())
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
	}

}

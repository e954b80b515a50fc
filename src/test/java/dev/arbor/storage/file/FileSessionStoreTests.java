package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.TestSessions;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.RowFilter;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionNotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The registry: finding, naming, creating, copying, deleting and caching session files. */
class FileSessionStoreTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");

	@TempDir
	Path dir;

	@Test
	void scanShouldFindSessionsInSubfoldersByTheIdInTheirHeader() throws IOException {
		Path sub = Files.createDirectories(this.dir.resolve("--Users-me-project--"));
		TestSessions.copy(TestSessions.OMP_V3, sub);
		SessionFiles.write(sub, "notes.txt", "not a session");
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			SessionInfo info = store.get(TestSessions.SESSION_ID);
			assertThat(info.file()).isEqualTo(sub.resolve(TestSessions.OMP_V3).toAbsolutePath());
			assertThat(info.entryCount()).isEqualTo(132);
			assertThat(store.list()).extracting(SessionInfo::id).containsExactly(TestSessions.SESSION_ID);
		}
	}

	@Test
	void getWhenIdIsUnknownShouldFailWithTheSessionId() {
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			assertThatExceptionOfType(SessionNotFoundException.class).isThrownBy(() -> store.get("nope"))
				.withMessage("Session nope not found");
		}
	}

	@Test
	void getWhenFileWasAddedByAnotherToolShouldFindItByRescanning() {
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			SessionFiles.write(this.dir, "later.jsonl", SessionFiles.HEADER + "\n");
			assertThat(store.get("s-1").entryCount()).isZero();
		}
	}

	@Test
	void createShouldWriteAVersion3HeaderNamedByTimestampAndId() throws IOException {
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			SessionInfo info = store.create("/work", "Title", "parent-1");
			assertThat(info.id()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
			assertThat(info.file().getFileName().toString()).isEqualTo("2026-01-02T03-04-05-678Z_" + info.id() + ".jsonl");
			assertThat(Files.readString(info.file())).isEqualTo("{\"type\":\"session\",\"version\":3,\"id\":\"" + info.id()
					+ "\",\"timestamp\":\"2026-01-02T03:04:05.678Z\",\"cwd\":\"/work\",\"title\":\"Title\",\"parentSession\":\"parent-1\"}\n");
			assertThat(info.leafId()).isNull();
			assertThat(info.title()).isEqualTo("Title");
		}
	}

	@Test
	void createBranchedSessionAndForkShouldSurviveARestartWithTheirLeaves() {
		String source;
		String branched;
		String forked;
		List<EntryLine> appended;
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			source = store.create("/w", null, null).id();
			appended = store.append(source, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("one"),
					SessionFiles.userMessage("two"), SessionFiles.userMessage("three")));
			store.moveLeaf(source, ExpectedLeaf.ANY, appended.get(1).id());
			branched = store.createBranchedSession(source, appended.get(0).id()).id();
			forked = store.fork(source).id();
		}
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			SessionInfo branch = store.get(branched);
			assertThat(branch.header().parentSession()).isEqualTo(source);
			assertThat(branch.entryCount()).isEqualTo(1);
			assertThat(branch.leafId()).isEqualTo(appended.get(0).id());
			SessionInfo fork = store.get(forked);
			assertThat(fork.header().parentSession()).isEqualTo(source);
			assertThat(fork.leafId()).isEqualTo(appended.get(1).id()); // the source's leaf, not its last entry
			List<EntryLine> copied = store.read(forked, SessionTree::getEntries);
			assertThat(copied).containsExactlyElementsOf(appended);
		}
	}

	@Test
	void evictionWhenOverBudgetShouldUnloadIdleSessionsAndLoseNothing() {
		try (FileSessionStore store = store(1)) {
			String first = store.create("/w", null, null).id();
			String second = store.create("/w", null, null).id();
			EntryLine a = store.append(first, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a"))).get(0);
			store.append(second, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("b")));
			assertThat(store.loadedSessions()).isEqualTo(1);
			List<EntryLine> more = store.append(first, ExpectedLeaf.of(a.id()), List.of(SessionFiles.userMessage("c")));
			assertThat(store.loadedSessions()).isEqualTo(1);
			List<EntryLine> path = store.read(first, SessionTree::getLeafPath);
			assertThat(path).extracting(EntryLine::id).containsExactly(a.id(), more.get(0).id());
			assertThat(store.get(second).entryCount()).isEqualTo(1);
		}
	}

	@Test
	void deleteShouldRemoveFileAndLeafAndForgetTheSession() {
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			SessionInfo info = store.create("/w", null, null);
			store.append(info.id(), ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a")));
			store.moveLeaf(info.id(), ExpectedLeaf.ANY, null);
			assertThat(StorageFiles.leafSidecar(info.file())).exists();
			store.delete(info.id(), ExpectedLeaf.ANY);
			assertThat(info.file()).doesNotExist();
			assertThat(StorageFiles.leafSidecar(info.file())).doesNotExist();
			assertThatExceptionOfType(SessionNotFoundException.class).isThrownBy(() -> store.get(info.id()));
		}
	}

	@Test
	void appendBranchSummaryShouldAttachAtFromIdAndPersist() {
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			String id = store.create("/w", null, null).id();
			List<EntryLine> entries = store.append(id, ExpectedLeaf.ANY,
					List.of(SessionFiles.userMessage("a"), SessionFiles.userMessage("b")));
			EntryLine summary = store.appendBranchSummary(id, ExpectedLeaf.of(entries.get(1).id()), entries.get(0).id(),
					"explored b", Json.newObject().put("k", 1), true);
			assertThat(summary.parentId()).isEqualTo(entries.get(0).id());
			assertThat(Json.text(summary.toNode(), "fromId")).isEqualTo(entries.get(0).id());
			assertThat(summary.toNode().get("fromExtension").asBoolean()).isTrue();
			assertThat(store.get(id).leafId()).isEqualTo(summary.id());
		}
	}

	@Test
	void evictionWhenASearchMakesASessionKeepItsTextShouldCountItAndUnloadIdleSessions() {
		String searched;
		String idle;
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			searched = sessionOfLongMessages(store);
			idle = sessionOfLongMessages(store);
		}
		long files;
		try (FileSessionStore store = store(Long.MAX_VALUE)) {
			files = store.get(searched).file().toFile().length() + store.get(idle).file().toFile().length();
		}
		// Room for both files and a view of each (about 40 bytes an entry), not for the text a search keeps (about 250
		// bytes an entry: a message's first 200 characters).
		try (FileSessionStore store = store(files + 60_000)) {
			store.read(searched, tree -> tree.getTreeRows(RowFilter.ALL, null));
			store.read(idle, tree -> tree.getTreeRows(RowFilter.ALL, null));
			assertThat(store.loadedSessions()).isEqualTo(2);

			int found = store.read(searched, tree -> tree.getTreeRows(RowFilter.ALL, "needle 7").matched());

			assertThat(found).isPositive();

			assertThat(store.loadedSessions()).as("the text a search keeps counts toward the budget").isEqualTo(1);
			assertThat(store.read(idle, SessionTree::getEntries)).hasSize(400);
			assertThat(store.read(searched, SessionTree::getEntries)).hasSize(400);
		}
	}

	/** A session of 400 user messages of about 300 characters each. */
	private static String sessionOfLongMessages(FileSessionStore store) {
		String id = store.create("/w", null, null).id();
		List<ObjectNode> messages = new ArrayList<>();
		for (int i = 0; i < 400; i++) {
			messages.add(SessionFiles.userMessage("needle " + i + " " + "haystack ".repeat(33)));
		}
		store.append(id, ExpectedLeaf.ANY, messages);
		return id;
	}

	private FileSessionStore store(long budget) {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, budget, Clock.fixed(NOW, ZoneOffset.UTC));
	}

}

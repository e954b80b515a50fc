package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SearchPage;
import dev.arbor.storage.SearchQuery;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Search kept in step with a real file store: built at start, current after appends and deletes, rebuilt when damaged. */
class FileSearchTests {

	@TempDir
	Path root;

	@Test
	void searchShouldFindExistingSessionsAndFollowAppendsAndDeletes() throws IOException {
		try (FileSessionStore store = new FileSessionStore(this.root, FsyncPolicy.NEVER, 1 << 20, InstantSource.system())) {
			SessionInfo first = store.create("/work", null, null);
			store.append(first.id(), ExpectedLeaf.ANY, List.of(message("the early bird")), null);
			try (FileSearch search = new FileSearch(store)) {
				assertThat(eventually(() -> search.search(query("early")), (page) -> page.total() == 1 && !page.partial()))
					.isTrue();
				store.append(first.id(), ExpectedLeaf.ANY, List.of(message("a later worm")), null);
				assertThat(eventually(() -> search.search(query("worm")), (page) -> page.total() == 1)).isTrue();
				store.delete(first.id(), ExpectedLeaf.ANY);
				assertThat(eventually(() -> search.search(query("early")), (page) -> page.total() == 0)).isTrue();
				assertThat(search.pendingSessions()).isZero();
			}
		}
	}

	@Test
	void searchWhenIndexIsFilledWithGarbageWhileRunningShouldRebuildIt() throws IOException {
		try (FileSessionStore store = new FileSessionStore(this.root, FsyncPolicy.NEVER, 1 << 20, InstantSource.system())) {
			SessionInfo first = store.create("/work", null, null);
			store.append(first.id(), ExpectedLeaf.ANY, List.of(message("needle in hay")), null);
			try (FileSearch search = new FileSearch(store)) {
				assertThat(eventually(() -> search.search(query("needle")), (page) -> page.total() == 1 && !page.partial()))
					.isTrue();
				try (Stream<Path> files = Files.list(this.root.resolve(FileSearch.FOLDER))) {
					for (Path file : files.filter((f) -> !f.getFileName().toString().equals("write.lock")).toList()) {
						Files.write(file, "garbage".getBytes(StandardCharsets.US_ASCII));
					}
				}
				assertThat(eventually(() -> search.search(query("needle")), (page) -> page.total() == 1 && !page.partial()))
					.isTrue();
			}
		}
	}

	@Test
	void searchShouldFindWhatAnotherProcessAppendsToASessionNotInMemory() throws IOException {
		// a budget of one byte keeps only the session used last in memory
		try (FileSessionStore store = new FileSessionStore(this.root, FsyncPolicy.NEVER, 1, InstantSource.system())) {
			SessionInfo first = store.create("/work", null, null);
			store.append(first.id(), ExpectedLeaf.ANY, List.of(message("alpha")), null);
			SessionInfo second = store.create("/work", null, null);
			store.append(second.id(), ExpectedLeaf.ANY, List.of(message("beta")), null);
			try (FileSearch search = new FileSearch(store)) {
				assertThat(eventually(() -> search.search(query("alpha")), (page) -> page.total() == 1 && !page.partial()))
					.isTrue();
				String leaf = store.get(first.id()).leafId();
				store.read(second.id(), (tree) -> null);
				assertThat(store.loadedSessions()).isEqualTo(1);
				// what an agent does to a session Arbor is not holding: one more line at the end of its file
				Files.writeString(first.file(), "{\"type\":\"message\",\"id\":\"agent001\",\"parentId\":\"" + leaf
						+ "\",\"timestamp\":\"2026-12-04T10:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":"
						+ "\"gamma ray\"}}\n", StandardOpenOption.APPEND);
				store.registry().pollLoaded(); // what the folder's watch or poll does on the file's change
				assertThat(eventually(() -> search.search(query("gamma")), (page) -> page.total() == 1)).isTrue();
				assertThat(search.search(query("alpha")).total()).isEqualTo(1);
			}
		}
	}

	@Test
	void searchAtTheNextStartShouldReadAgainOnlyTheSessionsThatChanged() throws IOException {
		SessionInfo unchanged;
		SessionInfo appended;
		SessionInfo changedWhileDown;
		SessionInfo deletedWhileDown;
		try (FileSessionStore store = new FileSessionStore(this.root, FsyncPolicy.NEVER, 1 << 20, InstantSource.system())) {
			unchanged = session(store, "apple");
			appended = session(store, "banana");
			changedWhileDown = session(store, "cherry");
			deletedWhileDown = session(store, "damson");
			try (FileSearch search = new FileSearch(store)) {
				assertThat(eventually(() -> search.search(query("damson")), (page) -> page.total() == 1 && !page.partial()))
					.isTrue();
				assertThat(search.lastBuildRead()).isEqualTo(4);
				store.append(appended.id(), ExpectedLeaf.ANY, List.of(message("blueberry")), null);
				assertThat(eventually(() -> search.search(query("blueberry")), (page) -> page.total() == 1)).isTrue();
			}
		}
		String leaf = Files.readAllLines(changedWhileDown.file()).get(1).replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
		Files.writeString(changedWhileDown.file(), "{\"type\":\"message\",\"id\":\"agent002\",\"parentId\":\""
				+ leaf + "\",\"timestamp\":\"2026-12-04T10:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":"
				+ "\"elderberry\"}}\n", StandardOpenOption.APPEND);
		Files.delete(deletedWhileDown.file());
		try (FileSessionStore store = new FileSessionStore(this.root, FsyncPolicy.NEVER, 1 << 20, InstantSource.system())) {
			session(store, "fig");
			try (FileSearch search = new FileSearch(store)) {
				assertThat(eventually(() -> search.search(query("fig")), (page) -> page.total() == 1 && !page.partial()))
					.isTrue();
				assertThat(search.lastBuildRead()).as("appended, changed while down, new; not %s", unchanged.id())
					.isEqualTo(3);
				for (String word : List.of("apple", "banana", "blueberry", "cherry", "elderberry")) {
					assertThat(search.search(query(word)).total()).as(word).isEqualTo(1);
				}
				assertThat(search.search(query("damson")).total()).isZero();
			}
		}
	}

	@Test
	void searchWhenStorageFolderIsDeletedWhileRunningShouldNotMakeItAgain() throws IOException, InterruptedException {
		Path storage = this.root.resolve("storage");
		try (FileSessionStore store = new FileSessionStore(storage, FsyncPolicy.NEVER, 1 << 20, InstantSource.system())) {
			SessionInfo first = store.create("/work", null, null);
			store.append(first.id(), ExpectedLeaf.ANY, List.of(message("soon gone")), null);
			try (FileSearch search = new FileSearch(store)) {
				assertThat(eventually(() -> search.search(query("gone")), (page) -> page.total() == 1 && !page.partial()))
					.isTrue();
				List<EntryLine> entries = store.read(first.id(), (tree) -> tree.getEntries());
				deleteTree(storage);
				// what the folder's watcher reports while the folder is taken away: the index's write fails, and the
				// rebuild that failure asks for must find nothing to rebuild into
				search.onChange(new SessionChange.EntriesAppended(first.id(), entries, null, SessionChange.Origin.EXTERNAL));
				search.onChange(new SessionChange.SessionDeleted(first.id(), SessionChange.Origin.EXTERNAL));
				Thread.sleep(1_500);
				assertThat(storage).doesNotExist();
			}
			assertThat(storage).doesNotExist();
		}
	}

	@Test
	void storeShouldNotTakeFilesUnderTheArborFolderForSessions() throws IOException {
		try (FileSessionStore store = new FileSessionStore(this.root, FsyncPolicy.NEVER, 1 << 20, InstantSource.system())) {
			SessionInfo first = store.create("/work", null, null);
			Path copy = this.root.resolve(".arbor/copy.jsonl");
			Files.createDirectories(copy.getParent());
			Files.writeString(copy, Files.readString(first.file()).replace(first.id(), "copied-session"));
			store.rescan();
			assertThat(store.list()).extracting(SessionInfo::id).containsExactly(first.id());
		}
	}

	private static boolean eventually(Supplier<SearchPage> search, java.util.function.Predicate<SearchPage> done) {
		Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
		while (Instant.now().isBefore(deadline)) {
			if (done.test(search.get())) {
				return true;
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return false;
	}

	private static SessionInfo session(FileSessionStore store, String word) {
		SessionInfo session = store.create("/work", null, null);
		store.append(session.id(), ExpectedLeaf.ANY, List.of(message(word)), null);
		return store.get(session.id());
	}

	private static void deleteTree(Path folder) throws IOException {
		try (Stream<Path> paths = Files.walk(folder)) {
			for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
				Files.delete(path);
			}
		}
	}

	private static SearchQuery query(String q) {
		return SearchQuery.parse(q, null, null, null, null, null, 10, null);
	}

	private static ObjectNode message(String text) {
		String json = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}";
		return Json.parseObject(json.getBytes(StandardCharsets.UTF_8));
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.StorageMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.arbor.storage.file.SessionFiles.HEADER;
import static dev.arbor.storage.file.SessionFiles.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session file that another process moved into a sub-folder of the storage directory, or renamed: the session
 * follows its file, keeps its leaf (the sidecar goes along) and is announced once, as moved, not as deleted
 * (docs/STORAGE.md#beside-a-running-agent). Real files, and the real watch and poll where they notice the move.
 */
class MovedSessionFileTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@TempDir
	Path dir;

	private final Recording changes = new Recording();

	private FileSessionStore store;

	private Path file;

	@BeforeEach
	void open() throws IOException {
		this.file = SessionFiles.write(this.dir, "2025-01-01_s-1.jsonl",
				HEADER + "\n" + entry("a", null, "one") + "\n" + entry("b", "a", "two") + "\n");
		this.store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC(),
				StorageMetrics.NONE, Duration.ofSeconds(1));
		this.store.addChangeListener(this.changes);
		this.store.moveLeaf("s-1", ExpectedLeaf.ANY, "a"); // a leaf that only the sidecar holds
		assertThat(StorageFiles.leafSidecar(this.file)).exists();
	}

	@AfterEach
	void close() {
		this.store.close();
	}

	@Test
	void renameSeenByTheWatchShouldMoveTheSessionWithItsLeafInOneChange() throws Exception {
		Path renamed = this.dir.resolve("2025-01-01_renamed.jsonl");
		try (SessionFolderWatch watch = SessionFolderWatch.start(this.store)) {
			Files.move(this.file, renamed, StandardCopyOption.ATOMIC_MOVE);
			awaitMoved();
			Thread.sleep(300); // whatever else the watch would announce
		}
		assertMovedOnce("2025-01-01_s-1.jsonl", "2025-01-01_renamed.jsonl");
		assertFollowed(renamed);
	}

	@Test
	void moveIntoANewSubFolderSeenByThePollShouldMoveTheSessionWithItsLeafInOneChange() throws Exception {
		Path moved = this.dir.resolve("--w--").resolve("2025-01-01_s-1.jsonl");
		try (SessionFolderPoll poll = SessionFolderPoll.start(this.store, Duration.ofHours(1))) {
			Thread.sleep(1100); // the folders' times are recorded, and a new one differs at a second's resolution
			Files.createDirectories(moved.getParent());
			Files.move(this.file, moved, StandardCopyOption.ATOMIC_MOVE);
			poll.poll();
			poll.poll();
		}
		assertMovedOnce("2025-01-01_s-1.jsonl", "--w--/2025-01-01_s-1.jsonl");
		assertFollowed(moved);
	}

	@Test
	void moveIntoAFolderThatExistsSeenByTheWatchShouldMoveTheSessionWithItsLeafInOneChange() throws Exception {
		Path folder = Files.createDirectories(this.dir.resolve("--w--"));
		Path moved = folder.resolve("2025-01-01_s-1.jsonl");
		try (SessionFolderWatch watch = SessionFolderWatch.start(this.store)) {
			Files.move(this.file, moved, StandardCopyOption.ATOMIC_MOVE);
			awaitMoved();
			Thread.sleep(300);
		}
		assertMovedOnce("2025-01-01_s-1.jsonl", "--w--/2025-01-01_s-1.jsonl");
		assertFollowed(moved);
	}

	@Test
	void readRightAfterARenameShouldFindTheSessionUnderItsNewName() throws IOException {
		Path renamed = this.dir.resolve("renamed.jsonl");
		Files.move(this.file, renamed, StandardCopyOption.ATOMIC_MOVE);
		assertThat(this.store.get("s-1").leafId()).isEqualTo("a");
		assertMovedOnce("2025-01-01_s-1.jsonl", "renamed.jsonl");
		assertFollowed(renamed);
	}

	@Test
	void renameOfASessionThatIsNotLoadedShouldKeepItsLeafWhenItLoadsAgain() throws IOException {
		assertThat(this.store.registry().sessions()).singleElement().satisfies(session -> assertThat(session.tryUnload()).isTrue());
		Path renamed = this.dir.resolve("renamed.jsonl");
		Files.move(this.file, renamed, StandardCopyOption.ATOMIC_MOVE);
		this.store.registry().directoryChanged(this.dir);
		assertMovedOnce("2025-01-01_s-1.jsonl", "renamed.jsonl");
		assertFollowed(renamed);
	}

	@Test
	void removalShouldStillEndTheSessionAndItsLeaf() throws IOException {
		Files.delete(this.file);
		this.store.registry().directoryChanged(this.dir);
		assertThat(this.changes.of(SessionChange.SessionDeleted.class)).hasSize(1);
		assertThat(this.changes.of(SessionChange.SessionMoved.class)).isEmpty();
		assertThat(StorageFiles.leafSidecar(this.file)).doesNotExist();
	}

	private void awaitMoved() throws InterruptedException {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (this.changes.of(SessionChange.SessionMoved.class).isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
	}

	private void assertMovedOnce(String from, String to) {
		assertThat(this.changes.of(SessionChange.SessionMoved.class)).singleElement().satisfies(moved -> {
			assertThat(moved.sessionId()).isEqualTo("s-1");
			assertThat(moved.oldName()).isEqualTo(from);
			assertThat(moved.name()).isEqualTo(to);
		});
		assertThat(this.changes.of(SessionChange.SessionDeleted.class)).as("not deleted").isEmpty();
		assertThat(this.changes.of(SessionChange.SessionCreated.class)).as("not created").isEmpty();
	}

	/** Served from its new file, its leaf kept, its sidecar beside it, and written there. */
	private void assertFollowed(Path now) throws IOException {
		assertThat(this.store.list()).singleElement().satisfies(info -> {
			assertThat(info.id()).isEqualTo("s-1");
			assertThat(info.file()).isEqualTo(now);
			assertThat(info.leafId()).as("the leaf survived").isEqualTo("a");
		});
		assertThat(this.store.unreadable()).isEmpty();
		assertThat(StorageFiles.leafSidecar(this.file)).as("no sidecar left behind").doesNotExist();
		assertThat(StorageFiles.leafSidecar(now)).exists();
		String id = this.store.append("s-1", ExpectedLeaf.of("a"), List.of(SessionFiles.userMessage("three"))).get(0).id();
		assertThat(Files.readString(now)).contains(id);
		assertThat(this.file).doesNotExist();
	}

	private static final class Recording implements SessionChangeListener {

		private final List<SessionChange> changes = new ArrayList<>();

		@Override
		public synchronized void onChange(SessionChange change) {
			this.changes.add(change);
		}

		synchronized <T extends SessionChange> List<T> of(Class<T> type) {
			return this.changes.stream().filter(type::isInstance).map(type::cast).toList();
		}

	}

}

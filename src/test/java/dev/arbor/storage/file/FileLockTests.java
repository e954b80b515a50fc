package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LeafMovedException;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionLockedException;
import dev.arbor.storage.SessionNotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * One writer per session file (docs/SESSION-FORMAT.md#durability-and-concurrency): a store holds the OS lock of every
 * session it wrote, so a second store, in this JVM (Java's {@code OverlappingFileLockException}) or in another process
 * (the lock refused), cannot write it until the first is closed, and then continues from what the first wrote.
 */
class FileLockTests {

	@TempDir
	Path dir;

	/** The child JVM's stderr and warm-up: not the storage directory. */
	@TempDir
	Path work;

	@Test
	void writeWhenAnotherStoreHoldsTheSessionShouldThrowSessionLockedAndLeaveTheFileByteIdentical()
			throws IOException {
		try (FileSessionStore first = newStore(); FileSessionStore second = newStore()) {
			String sessionId = first.create("/lock", null, null).id();
			List<String> ids = SessionFiles.ids(first.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a"), SessionFiles.userMessage("b"))));
			Path file = first.get(sessionId).file();
			byte[] before = Files.readAllBytes(file);

			assertThatExceptionOfType(SessionLockedException.class)
				.isThrownBy(() -> second.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("from the second"))));
			assertThatExceptionOfType(SessionLockedException.class)
				.isThrownBy(() -> second.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(0)));
			assertThatExceptionOfType(SessionLockedException.class)
				.isThrownBy(() -> second.appendBranchSummary(sessionId, ExpectedLeaf.ANY, ids.get(0), "summary", null,
						null));

			assertThat(Files.readAllBytes(file)).isEqualTo(before);
			assertThat(StorageFiles.leafSidecar(file)).doesNotExist();
			assertThat(second.get(sessionId).leafId()).isEqualTo(ids.get(1)); // reading is not writing
			assertThat(SessionFiles.idsOf(second, sessionId, tree -> tree.getEntries())).isEqualTo(ids);
			assertThat(first.append(sessionId, ExpectedLeaf.of(ids.get(1)), List.of(SessionFiles.userMessage("c")))).hasSize(1);
		}
	}

	@Test
	void appendWhenTheOtherStoreWasClosedShouldSucceed() {
		try (FileSessionStore second = newStore()) {
			String sessionId;
			List<String> ids;
			try (FileSessionStore first = newStore()) {
				sessionId = first.create("/lock", null, null).id();
				ids = SessionFiles.ids(first.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a"), SessionFiles.userMessage("b"))));
				assertThatExceptionOfType(SessionLockedException.class)
					.isThrownBy(() -> second.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("too early"))));
			}
			EntryLine appended = second.append(sessionId, ExpectedLeaf.of(ids.get(1)), List.of(SessionFiles.userMessage("c"))).get(0);
			assertThat(appended.parentId()).isEqualTo(ids.get(1));
			assertThat(second.moveLeaf(sessionId, ExpectedLeaf.of(appended.id()), ids.get(0))).isEqualTo(ids.get(0));
		}
	}

	@Test
	void appendWhenTheOtherStoreAppendedMoreBeforeClosingShouldFollowItsLastEntry() {
		String sessionId;
		List<String> ids = new ArrayList<>();
		try (FileSessionStore second = newStore()) {
			try (FileSessionStore first = newStore()) {
				sessionId = first.create("/lock", null, null).id();
				ids.addAll(SessionFiles.ids(first.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a")))));
				assertThatExceptionOfType(SessionLockedException.class) // the second has now read the session
					.isThrownBy(() -> second.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("too early"))));
				ids.addAll(SessionFiles.ids(first.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("b")))));
			}
			// docs/SESSION-FORMAT.md#the-leaf: the file was appended to by someone else since it was read: the leaf is
			// the last entry, and the tree has every entry of the file.
			EntryLine appended = second.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("c"))).get(0);
			assertThat(appended.parentId()).isEqualTo(ids.get(1));
			ids.add(appended.id());
			assertThat(SessionFiles.idsOf(second, sessionId, tree -> tree.getEntries())).isEqualTo(ids);
		}
		try (FileSessionStore reopened = newStore()) {
			assertThat(SessionFiles.idsOf(reopened, sessionId, tree -> tree.getEntries())).isEqualTo(ids);
		}
	}

	@Test
	void appendWhenTheOtherStoreMovedTheLeafBeforeClosingShouldFollowThatLeaf() {
		try (FileSessionStore second = newStore()) {
			String sessionId;
			List<String> ids;
			try (FileSessionStore first = newStore()) {
				sessionId = first.create("/lock", null, null).id();
				ids = SessionFiles.ids(first.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a"), SessionFiles.userMessage("b"))));
				assertThatExceptionOfType(SessionLockedException.class) // the second has now read the session
					.isThrownBy(() -> second.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("too early"))));
				first.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(0));
			}
			// docs/SESSION-FORMAT.md#the-leaf: the persisted leaf, not the one the second store saw before the move.
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> second.append(sessionId, ExpectedLeaf.of(ids.get(1)), List.of(SessionFiles.userMessage("stale"))));
			EntryLine appended = second.append(sessionId, ExpectedLeaf.of(ids.get(0)), List.of(SessionFiles.userMessage("c"))).get(0);
			assertThat(appended.parentId()).isEqualTo(ids.get(0));
		}
	}

	@Test
	void appendFromAnotherProcessShouldBeRefusedWhileThisStoreHoldsTheSessionEvenAfterARescan() throws Exception {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/lock", null, null).id();
			List<String> ids = new ArrayList<>(SessionFiles.ids(store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a")))));
			Path file = store.get(sessionId).file();
			try (AppendingChildProcess child = AppendingChildProcess.start(this.dir, sessionId, 1, this.work)) {
				child.go();
				child.awaitRefusals(1);
				ids.addAll(SessionFiles.ids(store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("b")))));
				// A lookup of an unknown id rescans the directory, reading the header of every session file.
				assertThatExceptionOfType(SessionNotFoundException.class).isThrownBy(() -> store.get("unknown"));
				store.rescan();
				int refusalsAfterRescan = child.refusals() + 2; // the second starts after the rescan returned
				child.awaitRefusals(refusalsAfterRescan);
				assertThat(child.acknowledged()).isEmpty();
				assertThat(child.kill()).isEmpty();
			}
			// Read only now: opening the file here while the child runs would itself drop this process's lock.
			assertThat(SessionFileReader.read(file).tree().getEntries()).extracting(EntryLine::id).isEqualTo(ids);
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getEntries())).isEqualTo(ids);
		}
	}

	@Test
	void appendFromAnotherProcessWhenThisStoreWasClosedShouldFollowItsLastEntry() throws Exception {
		String sessionId;
		List<String> ids;
		Path file;
		AppendingChildProcess child;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/lock", null, null).id();
			ids = new ArrayList<>(SessionFiles.ids(store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a")))));
			file = store.get(sessionId).file();
			child = AppendingChildProcess.start(this.dir, sessionId, 1, this.work);
			child.go();
			child.awaitRefusals(1); // the child has read the session by now
			ids.addAll(SessionFiles.ids(store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("b")))));
		}
		try (child) {
			child.awaitAcknowledged(3);
			List<String> acknowledged = child.kill();
			List<EntryLine> entries = SessionFileReader.read(file).tree().getEntries();
			assertThat(entries.subList(0, 2)).extracting(EntryLine::id).isEqualTo(ids);
			assertThat(entries.subList(2, 2 + acknowledged.size())).extracting(EntryLine::id).isEqualTo(acknowledged);
			// docs/SESSION-FORMAT.md#durability-and-concurrency: the child read the file before this store appended
			// "b", so its first entry must follow what the file held when it got the lock, not what it had read.
			assertThat(entries.get(2).parentId()).isEqualTo(ids.get(1));
		}
	}

	private FileSessionStore newStore() {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
	}

}

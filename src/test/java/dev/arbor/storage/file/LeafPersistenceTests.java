package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LeafMovedException;
import dev.arbor.storage.SessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The leaf is persisted with every move and restored by a new store (docs/SESSION-FORMAT.md#the-leaf and
 * docs/SESSION-FORMAT.md#durability-and-concurrency): an atomically replaced sidecar records the leaf and the file
 * length it belongs to; a length that no longer matches falls back to the last entry in file order. A conditional
 * mutation on a stale leaf changes nothing.
 */
class LeafPersistenceTests {

	@TempDir
	Path dir;

	@Test
	void moveLeafWhenStoreIsReopenedShouldRestoreTheEarlierEntry() {
		String sessionId;
		List<String> ids;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/leaf", null, null).id();
			ids = appendThree(store, sessionId);
			assertThat(store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(0))).isEqualTo(ids.get(0));
		}
		try (FileSessionStore store = newStore()) {
			assertThat(store.get(sessionId).leafId()).isEqualTo(ids.get(0));
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getLeafPath())).containsExactly(ids.get(0));
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getEntries())).isEqualTo(ids);
		}
	}

	@Test
	void moveLeafWhenMovedTwiceShouldRestoreTheLastMove() {
		String sessionId;
		List<String> ids;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/leaf", null, null).id();
			ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(0));
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(1));
		}
		try (FileSessionStore store = newStore()) {
			assertThat(store.get(sessionId).leafId()).isEqualTo(ids.get(1));
		}
	}

	@Test
	void moveLeafToNullWhenStoreIsReopenedShouldRestoreNullAndNextAppendShouldBeARoot() {
		String sessionId;
		List<String> ids;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/leaf", null, null).id();
			ids = appendThree(store, sessionId);
			assertThat(store.moveLeaf(sessionId, ExpectedLeaf.ANY, null)).isNull();
		}
		EntryLine root;
		try (FileSessionStore store = newStore()) {
			assertThat(store.get(sessionId).leafId()).isNull();
			root = store.append(sessionId, ExpectedLeaf.of(null), List.of(SessionFiles.userMessage("a new root"))).get(0);
		}
		assertThat(root.parentId()).isNull();
		try (FileSessionStore store = newStore()) {
			assertThat(store.get(sessionId).leafId()).isEqualTo(root.id());
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getLeafPath())).containsExactly(root.id());
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getPath(ids.get(2)))).isEqualTo(ids);
		}
	}

	@Test
	void appendAfterMoveLeafShouldMakeASecondChildThatIsTheLeafAfterRestart() {
		String sessionId;
		List<String> ids;
		EntryLine second;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/leaf", null, null).id();
			ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(0));
			second = store.append(sessionId, ExpectedLeaf.of(ids.get(0)), List.of(SessionFiles.userMessage("second child"))).get(0);
			assertThat(second.parentId()).isEqualTo(ids.get(0));
			assertThat(store.get(sessionId).leafId()).isEqualTo(second.id());
		}
		try (FileSessionStore store = newStore()) {
			assertThat(store.get(sessionId).leafId()).isEqualTo(second.id());
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getChildren(ids.get(0)))).containsExactly(ids.get(1),
					second.id());
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getLeafPath())).containsExactly(ids.get(0), second.id());
		}
	}

	@Test
	void loadWhenSomeoneElseAppendedAfterTheLeafWasRecordedShouldFallBackToTheLastEntry() throws IOException {
		String sessionId;
		List<String> ids;
		Path file;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/leaf", null, null).id();
			ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(0));
			file = store.get(sessionId).file();
		}
		assertThat(StorageFiles.leafSidecar(file)).exists();
		String foreign = "{\"type\":\"message\",\"id\":\"0f0f0f0f\",\"parentId\":\"" + ids.get(2)
				+ "\",\"timestamp\":\"2025-06-01T12:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"someone else\"}}\n";
		Files.write(file, foreign.getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
		try (FileSessionStore store = newStore()) {
			assertThat(store.get(sessionId).leafId()).isEqualTo("0f0f0f0f");
			assertThat(SessionFiles.idsOf(store, sessionId, tree -> tree.getLeafPath())).containsExactly(ids.get(0), ids.get(1),
					ids.get(2), "0f0f0f0f");
		}
	}

	@Test
	void mutationWhenExpectedLeafIsStaleShouldThrowLeafMovedAndLeaveFilesByteIdentical() throws IOException {
		String sessionId;
		List<String> ids;
		Path file;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/leaf", null, null).id();
			ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(1));
			file = store.get(sessionId).file();
			byte[] session = Files.readAllBytes(file);
			byte[] sidecar = Files.readAllBytes(StorageFiles.leafSidecar(file));
			ExpectedLeaf stale = ExpectedLeaf.of(ids.get(2)); // the leaf before the move

			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.append(sessionId, stale, List.of(SessionFiles.userMessage("on the wrong branch"))))
				.satisfies(ex -> {
					assertThat(ex.expectedTags()).containsExactly(ids.get(2));
					assertThat(ex.actualLeafId()).isEqualTo(ids.get(1));
				});
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.moveLeaf(sessionId, stale, ids.get(0)));
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.moveLeaf(sessionId, ExpectedLeaf.of(null), null));
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.appendBranchSummary(sessionId, stale, ids.get(0), "summary", null, null));

			assertThat(Files.readAllBytes(file)).isEqualTo(session);
			assertThat(Files.readAllBytes(StorageFiles.leafSidecar(file))).isEqualTo(sidecar);
			assertThat(store.get(sessionId).leafId()).isEqualTo(ids.get(1));
			assertThat(store.get(sessionId).entryCount()).isEqualTo(3);
		}
		try (FileSessionStore store = newStore()) {
			assertThat(store.get(sessionId).leafId()).isEqualTo(ids.get(1));
		}
	}

	@Test
	void mutationWhenExpectedLeafIsCurrentShouldSucceed() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/leaf", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(1));
			EntryLine appended = store.append(sessionId, ExpectedLeaf.of(ids.get(1)), List.of(SessionFiles.userMessage("here"))).get(0);
			assertThat(appended.parentId()).isEqualTo(ids.get(1));
			assertThat(store.moveLeaf(sessionId, ExpectedLeaf.of(appended.id()), ids.get(2))).isEqualTo(ids.get(2));
		}
	}

	private FileSessionStore newStore() {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
	}

	/** Three entries in one chain; returns their ids in order. */
	private static List<String> appendThree(SessionStore store, String sessionId) {
		return SessionFiles.ids(store.append(sessionId, ExpectedLeaf.ANY,
				List.of(SessionFiles.userMessage("first"), SessionFiles.userMessage("second"), SessionFiles.userMessage("third"))));
	}

}

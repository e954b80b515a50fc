package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.arbor.TestSessions;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Listing sessions ({@link FileSessionStore#list}) with a cache too small to hold them: an unloaded session whose
 * file kept its length is listed from the summary taken when it was last loaded, without loading it again; a file
 * that changed length is read again.
 */
class ListingTests {

	/** Every session is unloaded as soon as another one loads. */
	private static final long TINY_BUDGET = 1;

	private static final String FIXTURE_ID = TestSessions.SESSION_ID;

	@TempDir
	Path dir;

	@Test
	void listWhenCacheHoldsOneByteShouldListEverySessionRightWithAtMostOneLoaded() throws IOException {
		Map<String, Expected> expected = new HashMap<>();
		try (FileSessionStore store = store()) {
			String alpha = store.create("/a", "alpha", null).id();
			List<String> alphaIds = append(store, alpha, 3);
			store.moveLeaf(alpha, ExpectedLeaf.ANY, alphaIds.get(0)); // the leaf is not the last entry
			expected.put(alpha, new Expected(3, alphaIds.get(0), "alpha"));
			String beta = store.create("/b", "beta", null).id();
			expected.put(beta, new Expected(1, append(store, beta, 1).get(0), "beta"));
			String empty = store.create("/c", null, null).id();
			expected.put(empty, new Expected(0, null, null));
			SessionInfo imported = store.importSession(TestSessions.bytes(TestSessions.OMP_V3), false);
			expected.put(FIXTURE_ID, new Expected(132, imported.leafId(), "RSS and Atom feeds for quillmark"));
			assertThat(store.loadedSessions()).isLessThanOrEqualTo(1);

			for (int round = 0; round < 2; round++) {
				assertThat(listed(store)).isEqualTo(expected);
				assertThat(store.loadedSessions()).isLessThanOrEqualTo(1);
			}
		}
		try (FileSessionStore store = store()) {
			for (int round = 0; round < 2; round++) {
				assertThat(listed(store)).isEqualTo(expected);
				assertThat(store.loadedSessions()).isLessThanOrEqualTo(1);
			}
		}
	}

	@Test
	void listWhenUnloadedFileKeptItsLengthShouldUseTheSummaryWithoutReadingTheFile() throws IOException {
		try (FileSessionStore store = store()) {
			SessionInfo alpha = store.create("/a", "alpha", null);
			append(store, alpha.id(), 2);
			String other = store.create("/b", null, null).id(); // loading it unloads alpha
			assertThat(byId(store).get(alpha.id()).title()).isEqualTo("alpha");
			store.read(other, tree -> tree.size());
			// A same-length rewrite is not seen (StoredSession.Summary): here, the proof the file was not read again.
			String content = Files.readString(alpha.file());
			Files.writeString(alpha.file(), content.replace("\"title\":\"alpha\"", "\"title\":\"omega\""));
			assertThat(Files.size(alpha.file())).isEqualTo(content.length());

			SessionInfo listed = byId(store).get(alpha.id());
			assertThat(listed.title()).isEqualTo("alpha");
			assertThat(listed.entryCount()).isEqualTo(2);
			assertThat(store.get(alpha.id()).title()).isEqualTo("alpha");
			assertThat(store.loadedSessions()).isLessThanOrEqualTo(1);
		}
	}

	@Test
	void listWhenAnotherProcessAppendedToAnUnloadedSessionShouldReadItAgain() throws IOException {
		try (FileSessionStore store = store()) {
			SessionInfo alpha = store.create("/a", "alpha", null);
			List<String> ids = append(store, alpha.id(), 2);
			String beta = store.create("/b", "beta", null).id();
			append(store, beta, 1);
			assertThat(byId(store).get(alpha.id()).entryCount()).isEqualTo(2);
			store.read(beta, tree -> tree.size()); // alpha is unloaded now
			Files.write(alpha.file(),
					(SessionFiles.entry("0f0f0f0f", ids.get(1), "from outside") + "\n").getBytes(StandardCharsets.UTF_8),
					StandardOpenOption.APPEND);

			SessionInfo listed = byId(store).get(alpha.id());
			assertThat(listed.entryCount()).isEqualTo(3);
			assertThat(listed.leafId()).isEqualTo("0f0f0f0f");
			assertThat(listed.title()).isEqualTo("alpha");
			assertThat(byId(store).get(beta).entryCount()).isEqualTo(1);
			assertThat(store.loadedSessions()).isLessThanOrEqualTo(1);
			assertThat(byId(store).get(alpha.id()).entryCount()).isEqualTo(3);
		}
	}

	@Test
	void listWhenAnUnloadedSessionWasDeletedShouldLeaveItOut() throws IOException {
		try (FileSessionStore store = store()) {
			String deleted = store.create("/a", null, null).id();
			String removedByAnotherTool = store.create("/b", null, null).id();
			String kept = store.create("/c", null, null).id();
			Path removedFile = store.get(removedByAnotherTool).file();
			assertThat(store.list()).hasSize(3);
			store.delete(deleted, ExpectedLeaf.ANY);
			store.read(kept, tree -> tree.size());
			Files.delete(removedFile);
			assertThat(store.list()).extracting(SessionInfo::id).containsExactly(kept);
		}
	}

	@Test
	void listWhenFilesWereDroppedInShouldShowTheirMigrationAndSkippedLinesBothTimes() throws IOException {
		Path v1 = TestSessions.copy(TestSessions.PI_V1, Files.createDirectories(this.dir.resolve("pi")));
		Path damaged = SessionFiles.write(this.dir, "damaged.jsonl", SessionFiles.HEADER + "\n"
				+ SessionFiles.entry("a", null, "one") + "\nnot json\n" + SessionFiles.entry("b", "a", "two") + "\n");
		byte[] v1Bytes = Files.readAllBytes(v1);
		byte[] damagedBytes = Files.readAllBytes(damaged);
		String v1Leaf = SessionFileReader.read(v1).tree().leafId();
		try (FileSessionStore store = store()) {
			for (int round = 0; round < 2; round++) {
				Map<String, SessionInfo> listed = byId(store);
				assertThat(listed).containsOnlyKeys(FIXTURE_ID, "s-1");
				assertThat(listed.get(FIXTURE_ID).entryCount()).isEqualTo(49);
				assertThat(listed.get(FIXTURE_ID).leafId()).isEqualTo(v1Leaf);
				assertThat(listed.get(FIXTURE_ID).header().version()).isEqualTo(3);
				assertThat(listed.get(FIXTURE_ID).malformedLines()).isZero();
				assertThat(listed.get("s-1").entryCount()).isEqualTo(2);
				assertThat(listed.get("s-1").leafId()).isEqualTo("b");
				assertThat(listed.get("s-1").malformedLines()).isEqualTo(1);
				assertThat(store.loadedSessions()).isLessThanOrEqualTo(1);
			}
		}
		assertThat(Files.readAllBytes(v1)).isEqualTo(v1Bytes);
		assertThat(Files.readAllBytes(damaged)).isEqualTo(damagedBytes);
	}

	@Test
	void listWhenAnotherStoreMovedTheLeafOfAnUnloadedSessionShouldShowTheNewLeaf() {
		try (FileSessionStore store = store()) {
			String alpha = store.create("/a", null, null).id();
			List<String> ids = append(store, alpha, 2);
			String beta = store.create("/b", null, null).id();
			assertThat(byId(store).get(alpha).leafId()).isEqualTo(ids.get(1));
			store.read(beta, tree -> tree.size()); // alpha is unloaded, its file released
			try (FileSessionStore other = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE,
					Clock.systemUTC())) {
				other.moveLeaf(alpha, ExpectedLeaf.ANY, ids.get(0)); // only the leaf sidecar changes
			}
			assertThat(byId(store).get(alpha).leafId()).isEqualTo(ids.get(0));
			assertThat(store.get(alpha).leafId()).isEqualTo(ids.get(0));
			String read = store.read(alpha, tree -> tree.leafId()); // what a reader of the tree sees
			assertThat(read).isEqualTo(ids.get(0));
		}
	}

	private FileSessionStore store() {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, TINY_BUDGET, Clock.systemUTC());
	}

	private static List<String> append(SessionStore store, String sessionId, int count) {
		List<ObjectNode> drafts = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			drafts.add(SessionFiles.userMessage("message " + i));
		}
		return SessionFiles.ids(store.append(sessionId, ExpectedLeaf.ANY, drafts));
	}

	private static Map<String, SessionInfo> byId(SessionStore store) {
		return store.list().stream().collect(Collectors.toMap(SessionInfo::id, Function.identity()));
	}

	private static Map<String, Expected> listed(SessionStore store) {
		return store.list()
			.stream()
			.collect(Collectors.toMap(SessionInfo::id, info -> new Expected(info.entryCount(), info.leafId(), info.title())));
	}

	/** What a listing must show of one session. */
	private record Expected(int entryCount, @Nullable String leafId, @Nullable String title) {
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.arbor.TestSessions;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Ids;
import dev.arbor.session.SessionTree;
import dev.arbor.session.TitleSlot;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.InvalidSessionFileException;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.MalformedLine;
import dev.arbor.storage.SessionExistsException;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Importing an uploaded session file ({@link FileSessionStore#importSession}): migrated to version 3, written whole
 * as {@code <timestamp>_<id>.jsonl}, or refused with nothing written.
 */
class ImportTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");

	/** The id in the header of both test sessions. */
	private static final String SESSION_ID = TestSessions.SESSION_ID;

	private static final int V3_ENTRIES = 132;

	private static final int V1_ENTRIES = 49;

	private static final String FILE_NAME = "2026-01-02T03-04-05-678Z_" + SESSION_ID + ".jsonl";

	/**
	 * The file of both test sessions, in the folder pi keeps sessions of their cwd {@code /home/dana/src/quillmark} in
	 * (docs/STORAGE.md#where-new-sessions-go).
	 */
	private static final String FILE = "--home-dana-src-quillmark--/" + FILE_NAME;

	@TempDir
	Path dir;

	@Test
	void importWhenFileIsV3ShouldWriteItByteIdenticalWithTitleSlotIdsAndLeaf() throws IOException {
		byte[] content = fixture(TestSessions.OMP_V3);
		SessionTree direct = SessionFileReader.read(FileLines.split(fixture(TestSessions.OMP_V3)), TestSessions.OMP_V3).tree();
		List<String> ids = SessionFiles.ids(direct.getEntries());
		try (FileSessionStore store = store()) {
			SessionInfo info = store.importSession(content, false);
			assertThat(info.id()).isEqualTo(SESSION_ID);
			assertThat(info.file()).isEqualTo(store.root().resolve(FILE));
			assertThat(Files.readAllBytes(info.file())).isEqualTo(content);
			assertThat(SessionFiles.snapshot(this.dir)).containsOnlyKeys(FILE); // no temp file, no leaf sidecar
			assertThat(info.entryCount()).isEqualTo(V3_ENTRIES);
			assertThat(info.leafId()).isEqualTo(ids.get(V3_ENTRIES - 1));
			assertThat(info.malformedLines()).isZero();
			assertThat(info.header().version()).isEqualTo(3);
			byte[] slot = store.read(SESSION_ID, tree -> tree.titleSlot().line().bytes());
			assertThat(slot).hasSize(TitleSlot.SIZE - 1).isEqualTo(direct.titleSlot().line().bytes());
			assertThat(SessionFiles.idsOf(store, SESSION_ID, SessionTree::getEntries)).isEqualTo(ids);
		}
	}

	@Test
	void importWhenTitleSlotHasATitleShouldKeepTheSlotAndTheTitle() throws IOException {
		List<String> lines = lines(TestSessions.OMP_V3);
		String title = "\"title\":\"RSS and Atom feeds for quillmark\"";
		String retitled = "\"title\":\"Refactor\"";
		String slot = lines.get(0).replace(title, retitled)
			.replace("\"pad\":\"", "\"pad\":\"" + " ".repeat(title.length() - retitled.length()));
		assertThat(slot.getBytes(StandardCharsets.UTF_8)).hasSize(TitleSlot.SIZE - 1);
		lines.set(0, slot);
		byte[] content = join(lines);
		SessionInfo info;
		try (FileSessionStore store = store()) {
			info = store.importSession(content, false);
			assertThat(info.title()).isEqualTo("Refactor");
			assertThat(Files.readAllBytes(info.file())).isEqualTo(content);
		}
		try (FileSessionStore store = store()) {
			assertThat(store.get(SESSION_ID).title()).isEqualTo("Refactor");
		}
	}

	@Test
	void importWhenFileIsV1ShouldMigrateAndWriteVersion3() throws IOException {
		SessionTree direct = SessionFileReader.read(FileLines.split(fixture(TestSessions.PI_V1)), TestSessions.PI_V1).tree();
		List<String> ids = SessionFiles.ids(direct.getEntries());
		assertThat(ids).hasSize(V1_ENTRIES);
		SessionInfo info;
		try (FileSessionStore store = store()) {
			info = store.importSession(fixture(TestSessions.PI_V1), false);
			assertThat(info.id()).isEqualTo(SESSION_ID);
			assertThat(info.file()).isEqualTo(store.root().resolve(FILE));
			assertThat(info.entryCount()).isEqualTo(V1_ENTRIES);
			assertThat(info.leafId()).isEqualTo(ids.get(V1_ENTRIES - 1));
			assertThat(info.header().version()).isEqualTo(3);
			assertThat(SessionFiles.idsOf(store, SESSION_ID, SessionTree::getEntries)).isEqualTo(ids);
		}
		LoadedSession written = SessionFileReader.read(info.file());
		assertThat(written.fileVersion()).isEqualTo(3);
		assertThat(written.needsRewrite()).isFalse();
		assertThat(written.malformedLines()).isEmpty();
		assertThat(written.tree().titleSlot()).isNull();
		assertThat(Files.readAllLines(info.file()).get(0)).startsWith("{\"type\":\"session\",\"id\":\"" + SESSION_ID + "\"")
			.endsWith(",\"version\":3}");
		List<EntryLine> entries = written.tree().getEntries();
		assertThat(SessionFiles.ids(entries)).isEqualTo(ids);
		assertThat(entries.get(0).parentId()).isNull();
		for (int i = 1; i < entries.size(); i++) {
			assertThat(entries.get(i).parentId()).isEqualTo(entries.get(i - 1).id());
		}
		for (int i = 0; i < entries.size(); i++) {
			assertThat(entries.get(i).toNode()).isEqualTo(direct.getEntries().get(i).toNode());
		}
		assertThat(written.tree().getPath(written.tree().leafId())).hasSize(V1_ENTRIES);
		assertThat(SessionFiles.snapshot(this.dir)).containsOnlyKeys(FILE);
		try (FileSessionStore reopened = store()) {
			assertThat(reopened.get(SESSION_ID).leafId()).isEqualTo(ids.get(V1_ENTRIES - 1));
			assertThat(reopened.get(SESSION_ID).entryCount()).isEqualTo(V1_ENTRIES);
			assertThat(SessionFiles.idsOf(reopened, SESSION_ID, SessionTree::getEntries)).isEqualTo(ids);
		}
	}

	@Test
	void importWhenLastLineIsTornShouldRejectItWithItsLineNumberAndWriteNothing() {
		byte[] fixture = fixture(TestSessions.OMP_V3);
		int tornLine = lines(TestSessions.OMP_V3).size() + 1;
		byte[] content = concat(fixture, "{\"type\":\"message\",\"id\":\"0badf00d\",\"parentId\":\"5137".getBytes(StandardCharsets.UTF_8));
		try (FileSessionStore store = store()) {
			assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(content, false))
				.satisfies(ex -> {
					assertThat(ex.malformedLines()).hasSize(1);
					MalformedLine torn = ex.malformedLines().get(0);
					assertThat(torn.lineNumber()).isEqualTo(tornLine);
					assertThat(torn.offset()).isEqualTo(fixture.length);
					assertThat(torn.reason()).startsWith("torn last line (no newline)");
					assertThat(ex.reason()).startsWith("1 malformed line (line " + tornLine + ": torn last line");
				});
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
			assertThat(store.list()).isEmpty();
		}
	}

	@Test
	void importWhenAMiddleLineIsGarbageShouldRejectItWithItsLineNumberAndOffset() {
		List<String> lines = lines(TestSessions.OMP_V3);
		lines.add(10, "this is not JSON");
		long offset = 0;
		for (String line : lines.subList(0, 10)) {
			offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
		}
		long expectedOffset = offset;
		byte[] content = join(lines);
		try (FileSessionStore store = store()) {
			assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(content, false))
				.satisfies(ex -> {
					assertThat(ex.malformedLines()).extracting(MalformedLine::lineNumber).containsExactly(11);
					assertThat(ex.malformedLines().get(0).offset()).isEqualTo(expectedOffset);
					assertThat(ex.reason()).startsWith("1 malformed line (line 11: ");
				});
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	@Test
	void importWhenSeveralLinesAreMalformedShouldListEveryOne() {
		List<String> lines = lines(TestSessions.OMP_V3);
		lines.add(3, "{\"type\":\"message\",\"parentId\":null,\"message\":{}}"); // line 4: no id in a v3 file
		lines.add(5, "{\"type\":\"session\",\"id\":\"second\"}"); // line 6: a second header
		lines.add(7, "[1,2,3]"); // line 8
		lines.add(9, "{\"type\":"); // line 10
		byte[] content = join(lines);
		try (FileSessionStore store = store()) {
			assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(content, false))
				.satisfies(ex -> {
					assertThat(ex.malformedLines()).extracting(MalformedLine::lineNumber).containsExactly(4, 6, 8, 10);
					assertThat(ex.malformedLines().get(0).reason()).isEqualTo("no string \"id\" field");
					assertThat(ex.malformedLines().get(1).reason()).isEqualTo("a second session header");
					assertThat(ex.reason()).startsWith("4 malformed lines (line 4: ").endsWith("; …)");
				});
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	@Test
	void importWhenMalformedLinesAreSkippedShouldImportTheRest() throws IOException {
		byte[] fixture = fixture(TestSessions.OMP_V3);
		List<String> lines = lines(TestSessions.OMP_V3);
		lines.add(10, "this is not JSON");
		byte[] content = concat(join(lines), "{\"type\":\"message\",\"id\":\"0badf00d\",\"par".getBytes(StandardCharsets.UTF_8));
		SessionInfo info;
		try (FileSessionStore store = store()) {
			info = store.importSession(content, true);
			assertThat(info.entryCount()).isEqualTo(V3_ENTRIES);
			assertThat(info.malformedLines()).isZero();
			assertThat(Files.readAllBytes(info.file())).isEqualTo(fixture); // exactly the lines that are entries
			assertThat(SessionFiles.snapshot(this.dir)).containsOnlyKeys(FILE);
		}
		try (FileSessionStore store = store()) {
			assertThat(store.get(SESSION_ID).entryCount()).isEqualTo(V3_ENTRIES);
			assertThat(store.get(SESSION_ID).malformedLines()).isZero();
		}
	}

	@Test
	void importWhenV1LinesAreSkippedShouldGiveTheIdsOfLoadingThatFile() {
		List<String> lines = lines(TestSessions.PI_V1);
		lines.add(5, "garbage");
		byte[] content = join(lines);
		List<String> ids = SessionFiles.ids(SessionFileReader.read(FileLines.split(content), "damaged").tree().getEntries());
		assertThat(ids).hasSize(V1_ENTRIES);
		try (FileSessionStore store = store()) {
			SessionInfo info = store.importSession(content, true);
			assertThat(info.entryCount()).isEqualTo(V1_ENTRIES);
			assertThat(SessionFiles.idsOf(store, SESSION_ID, SessionTree::getEntries)).isEqualTo(ids);
		}
	}

	@Test
	void importWhenFirstLineIsNotAHeaderShouldRejectItAndWriteNothing() {
		List<String> lines = lines(TestSessions.OMP_V3);
		byte[] entriesOnly = join(lines.subList(2, lines.size()));
		try (FileSessionStore store = store()) {
			assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(entriesOnly, true))
				.satisfies(ex -> {
					assertThat(ex.reason()).isEqualTo("line 1 is not a session header with a string id");
					assertThat(ex.malformedLines()).isEmpty();
				});
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	@Test
	void importWhenTitleSlotIsNotFollowedByAHeaderShouldRejectIt() {
		List<String> lines = lines(TestSessions.OMP_V3);
		lines.remove(1);
		byte[] content = join(lines);
		try (FileSessionStore store = store()) {
			assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(content, true))
				.satisfies(ex -> assertThat(ex.reason()).isEqualTo("line 2 is not a session header with a string id"));
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	@Test
	void importWhenContentIsEmptyShouldRejectItAndWriteNothing() {
		try (FileSessionStore store = store()) {
			assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(new byte[0], true))
				.satisfies(ex -> assertThat(ex.reason()).isEqualTo("no session header"));
			assertThatExceptionOfType(InvalidSessionFileException.class)
				.isThrownBy(() -> store.importSession("\n  \n\t\n".getBytes(StandardCharsets.UTF_8), true))
				.satisfies(ex -> assertThat(ex.reason()).isEqualTo("no session header"));
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	@Test
	void importWhenContentIsNotJsonShouldRejectItAndWriteNothing() {
		byte[] notUtf8 = { (byte) 0x1f, (byte) 0x8b, (byte) 0x08, (byte) 0xff, (byte) 0xfe, '\n' }; // a gzip header
		byte[] numericId = "{\"type\":\"session\",\"version\":3,\"id\":42}\n".getBytes(StandardCharsets.UTF_8);
		byte[] text = "hello\nworld\n".getBytes(StandardCharsets.UTF_8);
		try (FileSessionStore store = store()) {
			for (byte[] content : List.of(notUtf8, numericId, text)) {
				assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(content, true))
					.satisfies(ex -> assertThat(ex.reason()).isEqualTo("line 1 is not a session header with a string id"));
			}
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	@Test
	void importWhenIdExistsShouldThrowSessionExistsAndChangeNothing() throws IOException {
		try (FileSessionStore store = store()) {
			store.importSession(fixture(TestSessions.OMP_V3), false);
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(SessionExistsException.class)
				.isThrownBy(() -> store.importSession(fixture(TestSessions.PI_V1), false))
				.satisfies(ex -> assertThat(ex.sessionId()).isEqualTo(SESSION_ID))
				.withMessage("Session " + SESSION_ID + " already exists");
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
			assertThat(Files.readAllBytes(store.get(SESSION_ID).file())).isEqualTo(fixture(TestSessions.OMP_V3));
			assertThat(store.list()).hasSize(1);
		}
	}

	@Test
	void importWhenAnotherToolAddedAFileWithThatIdShouldThrowSessionExistsAndChangeNothing() throws IOException {
		try (FileSessionStore store = store()) {
			Path sub = Files.createDirectories(this.dir.resolve("--Users-me-project--"));
			Path added = TestSessions.copy(TestSessions.PI_V1, sub); // not scanned yet
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(SessionExistsException.class)
				.isThrownBy(() -> store.importSession(fixture(TestSessions.OMP_V3), false));
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
			assertThat(Files.readAllBytes(added)).isEqualTo(fixture(TestSessions.PI_V1));
			assertThat(store.get(SESSION_ID).file()).isEqualTo(added.toAbsolutePath());
		}
	}

	@Test
	void importWhenTheSessionWasDeletedShouldStoreItAgain() throws IOException {
		try (FileSessionStore store = store()) {
			SessionInfo first = store.importSession(fixture(TestSessions.OMP_V3), false);
			store.delete(SESSION_ID, ExpectedLeaf.ANY);
			SessionInfo second = store.importSession(fixture(TestSessions.OMP_V3), false);
			assertThat(second.file()).isEqualTo(first.file());
			assertThat(Files.readAllBytes(second.file())).isEqualTo(fixture(TestSessions.OMP_V3));
			assertThat(store.get(SESSION_ID).entryCount()).isEqualTo(V3_ENTRIES);
		}
	}

	@Test
	void importWhenAnotherToolRemovedTheFileOfThatIdShouldStoreIt() throws IOException {
		try (FileSessionStore store = store()) {
			Path added = TestSessions.copy(TestSessions.PI_V1, this.dir);
			store.rescan();
			Files.delete(added); // known to the registry, never loaded, now gone
			assertThat(store.list()).isEmpty();
			SessionInfo info = store.importSession(fixture(TestSessions.OMP_V3), false);
			assertThat(Files.readAllBytes(info.file())).isEqualTo(fixture(TestSessions.OMP_V3));
			assertThat(store.get(SESSION_ID).entryCount()).isEqualTo(V3_ENTRIES);
		}
	}

	@ParameterizedTest
	@MethodSource("invalidIds")
	void importWhenHeaderIdIsNotAValidIdShouldRejectItAndWriteNothing(String id) {
		byte[] content = session(id);
		try (FileSessionStore store = store()) {
			assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> store.importSession(content, false))
				.satisfies(ex -> assertThat(ex.reason()).isEqualTo("its session id is not of the form " + Ids.PATTERN));
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	static Stream<String> invalidIds() {
		return Stream.of("../x", "..", "a/b", "a\\b", "/etc/passwd", "", " x", ".hidden", "-x", "x y", "x\ny", "é",
				"a".repeat(129), "a".repeat(200));
	}

	@Test
	void importWhenIdHasTheLongestAllowedLengthShouldStoreIt() {
		String id = "A" + "b0_.:-".repeat(21) + "z";
		assertThat(id).hasSize(128);
		try (FileSessionStore store = store()) {
			SessionInfo info = store.importSession(session(id), false);
			assertThat(info.id()).isEqualTo(id);
			assertThat(info.file().getFileName().toString()).isEqualTo("2026-01-02T03-04-05-678Z_" + id + ".jsonl");
			assertThat(info.file().getParent()).as("the folder of its cwd /w").isEqualTo(store.root().resolve("--w--"));
			assertThat(info.entryCount()).isEqualTo(1);
			assertThat(info.leafId()).isEqualTo("e1");
		}
	}

	private FileSessionStore store() {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.fixed(NOW, ZoneOffset.UTC));
	}

	/** A small v3 session with the given header id and one entry. */
	private static byte[] session(String id) {
		String escaped = id.replace("\\", "\\\\").replace("\n", "\\n");
		return ("{\"type\":\"session\",\"version\":3,\"id\":\"" + escaped
				+ "\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}\n" + SessionFiles.entry("e1", null, "hi")
				+ "\n")
			.getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] fixture(String name) {
		return TestSessions.bytes(name);
	}

	private static List<String> lines(String name) {
		return TestSessions.lines(name);
	}

	/** Lines as a file: each followed by a newline. */
	private static byte[] join(List<String> lines) {
		return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
	}

	private static byte[] concat(byte[] head, byte[] tail) {
		byte[] joined = new byte[head.length + tail.length];
		System.arraycopy(head, 0, joined, 0, head.length);
		System.arraycopy(tail, 0, joined, head.length, tail.length);
		return joined;
	}

}

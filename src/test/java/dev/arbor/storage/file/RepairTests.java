package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.InvalidSessionFileException;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.MalformedLine;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.UnreadableSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.arbor.storage.file.SessionFiles.HEADER;
import static dev.arbor.storage.file.SessionFiles.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Damaged and invalid files (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions and
 * docs/SESSION-FORMAT.md#durability-and-concurrency): counted, repaired only with a backup, or left alone.
 */
class RepairTests {

	@TempDir
	Path dir;

	@Test
	void loadWhenTailIsTornShouldSkipItAndLeaveFileUntouched() throws IOException {
		String content = HEADER + "\n" + entry("a", null, "one") + "\n" + "{\"type\":\"message\",\"id\":\"b\",\"par";
		Path file = SessionFiles.write(this.dir, "torn.jsonl", content);
		LoadedSession loaded = SessionFileReader.read(file);
		assertThat(loaded.tree().getEntries()).extracting(EntryLine::id).containsExactly("a");
		assertThat(loaded.malformedLines()).singleElement().satisfies(line -> {
			assertThat(line.lineNumber()).isEqualTo(3);
			assertThat(line.offset()).isEqualTo(HEADER.length() + 1 + entry("a", null, "one").length() + 1);
			assertThat(line.reason()).startsWith("torn last line");
		});
		assertThat(Files.readString(file)).isEqualTo(content);
	}

	@Test
	void loadWhenMiddleLineIsMalformedShouldCountItAndKeepTheRest() throws IOException {
		String content = HEADER + "\n" + entry("a", null, "one") + "\n" + "not json at all\n" + "\n"
				+ entry("b", "a", "two") + "\n" + "[1,2]\n" + "{\"type\":\"message\"}\n";
		Path file = SessionFiles.write(this.dir, "middle.jsonl", content);
		LoadedSession loaded = SessionFileReader.read(file);
		assertThat(loaded.tree().getEntries()).extracting(EntryLine::id).containsExactly("a", "b");
		assertThat(loaded.malformedLines()).extracting(MalformedLine::lineNumber).containsExactly(3, 6, 7);
		assertThat(loaded.malformedLines().get(2).reason()).isEqualTo("no string \"id\" field");
		assertThat(loaded.needsRewrite()).isTrue();
	}

	@Test
	void firstAppendAfterTornTailAndMalformedLineShouldKeepBackupAndLeaveValidFile() throws IOException {
		String content = HEADER + "\n" + entry("a", null, "one") + "\n" + "garbage\n" + entry("b", "a", "two") + "\n"
				+ "{\"type\":\"mess";
		Path file = SessionFiles.write(this.dir, "damaged.jsonl", content);
		byte[] original = Files.readAllBytes(file);
		try (FileSessionStore store = store()) {
			assertThat(store.get("s-1").malformedLines()).isEqualTo(2);
			List<EntryLine> appended = store.append("s-1", ExpectedLeaf.of("b"), List.of(SessionFiles.userMessage("three")));
			assertThat(appended.get(0).parentId()).isEqualTo("b");
			assertThat(store.get("s-1").malformedLines()).isZero();
		}
		assertThat(SessionFiles.backups(this.dir)).singleElement()
			.satisfies(backup -> assertThat(Files.readAllBytes(backup)).isEqualTo(original));
		LoadedSession reloaded = SessionFileReader.read(file);
		assertThat(reloaded.malformedLines()).isEmpty();
		assertThat(reloaded.tree().getEntries()).extracting(EntryLine::id).hasSize(3).startsWith("a", "b");
		assertThat(Files.readString(file)).endsWith("\n").doesNotContain("garbage");
	}

	@Test
	void appendWhenLastLineIsCompleteButHasNoNewlineShouldNotGlueOntoIt() throws IOException {
		Path file = SessionFiles.write(this.dir, "nonewline.jsonl", HEADER + "\n" + entry("a", null, "one"));
		try (FileSessionStore store = store()) {
			store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("two")));
		}
		LoadedSession reloaded = SessionFileReader.read(file);
		assertThat(reloaded.malformedLines()).isEmpty();
		assertThat(reloaded.tree().getEntries()).hasSize(2);
		assertThat(SessionFiles.backups(this.dir)).isEmpty();
	}

	@Test
	void invalidFileShouldBeListedAsUnreadableAndStayByteIdentical() throws IOException {
		byte[] notAHeader = (entry("a", null, "one") + "\n").getBytes(StandardCharsets.UTF_8);
		Path invalid = this.dir.resolve("invalid.jsonl");
		Files.write(invalid, notAHeader);
		Path empty = SessionFiles.write(this.dir, "empty.jsonl", "");
		Path headerWithoutId = SessionFiles.write(this.dir, "noid.jsonl", "{\"type\":\"session\",\"version\":3}\n");
		try (FileSessionStore store = store()) {
			assertThat(store.list()).isEmpty();
			assertThat(store.unreadable()).extracting(UnreadableSession::file)
				.containsExactlyInAnyOrder(invalid.toAbsolutePath(), empty.toAbsolutePath(), headerWithoutId.toAbsolutePath());
			assertThat(store.unreadable()).allSatisfy(unreadable -> assertThat(unreadable.reason()).isNotBlank());
			assertThatExceptionOfType(SessionNotFoundException.class)
				.isThrownBy(() -> store.append("a", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("x"))));
		}
		assertThatExceptionOfType(InvalidSessionFileException.class).isThrownBy(() -> SessionFileReader.read(invalid))
			.satisfies(ex -> assertThat(ex.reason()).contains("session header"));
		assertThat(Files.readAllBytes(invalid)).isEqualTo(notAHeader);
		assertThat(Files.readAllBytes(empty)).isEmpty();
		assertThat(Files.readString(headerWithoutId)).isEqualTo("{\"type\":\"session\",\"version\":3}\n");
		assertThat(SessionFiles.backups(this.dir)).isEmpty();
	}

	private FileSessionStore store() {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
	}

}

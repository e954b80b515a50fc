package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import dev.arbor.AgentWrites;
import dev.arbor.session.EntryLine;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.SessionFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.arbor.storage.file.SessionFiles.HEADER;
import static dev.arbor.storage.file.SessionFiles.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * An append that another process's write beat to the end of the file, in the moment between the check and the
 * write: what append mode then does, and how the tree keeps file order. The moment is too short to hit on demand, so
 * these tests write the other process's bytes first and then append as if the check had come before them.
 */
class AppendLandingTests {

	@TempDir
	Path dir;

	@Test
	void findWhenAnotherCompleteLineCameFirstShouldTakeItInBeforeTheAppendedLines() throws IOException {
		Path path = SessionFiles.write(this.dir, "s.jsonl", HEADER + "\n" + entry("a", null, "one") + "\n");
		LoadedTree loaded = load(path);
		long start = loaded.consumed;
		String outside = AgentWrites.userMessage("0utside1", "a", "first");
		AgentWrites.append(path, outside + "\n");
		try (SessionFile file = open(path)) {
			List<EntryLine> lines = plan(loaded, "mine", "and mine");
			file.append(SessionContent.lines(lines), start);
			AppendLanding.Landed landed = AppendLanding.find(file, loaded, lines, start);
			assertThat(landed).isNotNull();
			assertThat(SessionFiles.ids(AppendLanding.takeBefore(loaded, landed, "s.jsonl"))).containsExactly("0utside1");
			loaded.tree.append(lines);
			assertThat(AppendLanding.takeAfter(loaded, landed, "s.jsonl")).isEmpty();
			assertThat(landed.end()).isEqualTo(Files.size(path));
			assertThat(loaded.consumed).isEqualTo(Files.size(path));
			assertThat(loaded.lineCount).isEqualTo(5);
			assertThat(SessionFiles.ids(loaded.tree.getEntries())).as("file order")
				.isEqualTo(SessionFiles.ids(SessionFileReader.read(path).tree().getEntries()));
		}
	}

	@Test
	void findWhenTheAppendLandedOnAnUnfinishedLineShouldTakeItBack() throws IOException {
		Path path = SessionFiles.write(this.dir, "s.jsonl", HEADER + "\n" + entry("a", null, "one") + "\n");
		LoadedTree loaded = load(path);
		long start = loaded.consumed;
		String outside = AgentWrites.userMessage("0utside1", "a", "written in two parts");
		try (SessionFile file = open(path)) {
			List<EntryLine> lines = appendAfterUnfinished(path, file, loaded, outside.substring(0, 30));
			assertThat(AppendLanding.find(file, loaded, lines, start)).as("taken back").isNull();
			assertThat(Files.size(path)).isEqualTo(start + 30);
			AgentWrites.append(path, outside.substring(30) + "\n");
			assertThat(Files.readAllLines(path)).containsExactly(HEADER, entry("a", null, "one"), outside);
		}
	}

	@Test
	void findWhenTheAppendLandedOnAnUnfinishedLineThatWasFinishedAfterItShouldFailAndCutNothing() throws IOException {
		Path path = SessionFiles.write(this.dir, "s.jsonl", HEADER + "\n" + entry("a", null, "one") + "\n");
		LoadedTree loaded = load(path);
		long start = loaded.consumed;
		String outside = AgentWrites.userMessage("0utside1", "a", "written in two parts");
		try (SessionFile file = open(path)) {
			List<EntryLine> lines = appendAfterUnfinished(path, file, loaded, outside.substring(0, 30));
			AgentWrites.append(path, outside.substring(30) + "\n");
			long size = Files.size(path);
			assertThatIOException().isThrownBy(() -> AppendLanding.find(file, loaded, lines, start))
				.withMessageContaining("unfinished line");
			assertThat(Files.size(path)).as("lines of others are never cut off").isEqualTo(size);
		}
	}

	/** Another process starts a line; the append checked the file's end before that, and lands after it. */
	private static List<EntryLine> appendAfterUnfinished(Path path, SessionFile file, LoadedTree loaded, String start)
			throws IOException {
		AgentWrites.append(path, start);
		List<EntryLine> lines = plan(loaded, "mine");
		file.append(SessionContent.lines(lines), loaded.consumed);
		return lines;
	}

	private static LoadedTree load(Path path) throws IOException {
		FileStamp stamp = FileStamp.read(path);
		return new LoadedTree(SessionFileReader.read(FileLines.read(path), "s.jsonl", false), stamp);
	}

	private static SessionFile open(Path path) throws IOException {
		return SessionFile.open(path, FsyncPolicy.ALWAYS, channel -> channel.force(false));
	}

	private static List<EntryLine> plan(LoadedTree loaded, String... texts) {
		return loaded.tree.prepareAppend(Arrays.stream(texts).map(SessionFiles::userMessage).toList(),
				Instant.now());
	}

}

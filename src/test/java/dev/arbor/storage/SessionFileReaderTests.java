package dev.arbor.storage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.arbor.session.EntryIds;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session with many lines is scanned in parallel ranges and its tree built on all cores: the result is the file's,
 * in file order, as a scan line by line gives it (docs/SESSION-FORMAT.md#reading-a-file,
 * docs/SESSION-FORMAT.md#the-tree and docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
 */
class SessionFileReaderTests {

	private static final String HEADER = "{\"type\":\"session\",\"version\":3,\"id\":\"many\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}";

	/** Enough for parallel ranges, and for the id index and the parents to be built on all cores. */
	private static final int LINES = 30_000;

	@TempDir
	Path dir;

	@Test
	void readWhenLinesAreManyShouldKeepFileOrderLineNumbersOffsetsAndLaterDuplicates() throws IOException {
		StringBuilder content = new StringBuilder(HEADER).append('\n');
		List<String> expectedIds = new ArrayList<>();
		List<MalformedLine> expectedMalformed = new ArrayList<>();
		String previous = null;
		long offset = HEADER.length() + 1;
		for (int i = 0; i < LINES; i++) {
			int lineNumber = i + 2;
			String line;
			if (i % 997 == 500) {
				line = "not json";
				expectedMalformed.add(new MalformedLine(lineNumber, offset, "not a JSON object"));
			}
			else if (i % 1499 == 700) {
				line = "{\"type\":\"message\",\"parentId\":null}";
				expectedMalformed.add(new MalformedLine(lineNumber, offset, "no string \"id\" field"));
			}
			else if (i % 2003 == 900) {
				line = "  ";
			}
			else {
				// every third id is text, the others hex; every 2,500th repeats an earlier id
				String id = (i % 2500 == 2499) ? expectedIds.get(i / 2) : (i % 3 == 0) ? "text-" + i : EntryIds.hex8(i * 7919);
				line = "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":" + ((previous != null) ? "\"" + previous + "\"" : "null")
						+ ",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"message\":{\"role\":\"user\",\"content\":\"" + i + "\"}}";
				expectedIds.add(id);
				previous = id;
			}
			content.append(line).append('\n');
			offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
		}
		Path file = Files.writeString(this.dir.resolve("many.jsonl"), content);

		LoadedSession loaded = SessionFileReader.read(file);

		SessionTree tree = loaded.tree();
		assertThat(tree.getEntries()).extracting(EntryLine::id).containsExactlyElementsOf(expectedIds);
		assertThat(loaded.malformedLines()).containsExactlyElementsOf(expectedMalformed);
		assertThat(loaded.lineCount()).isEqualTo(LINES + 1);
		String repeated = expectedIds.get(2499 / 2);
		int later = expectedIds.lastIndexOf(repeated);
		assertThat(tree.requireEntry(repeated)).isSameAs(tree.getEntries().get(later));
		for (int i = 1; i < expectedIds.size(); i++) {
			assertThat(tree.getEntries().get(i).parentId()).isEqualTo(expectedIds.get(i - 1));
		}
		// The children of each id, as the later-wins rule makes them: an entry hangs under the last entry of its
		// parent's id, and only the last entry of each id is linked.
		Map<String, Integer> last = new HashMap<>();
		for (int i = 0; i < expectedIds.size(); i++) {
			last.put(expectedIds.get(i), i);
		}
		Map<String, List<String>> children = new HashMap<>();
		for (int i = 1; i < expectedIds.size(); i++) {
			String id = expectedIds.get(i);
			int parent = last.get(expectedIds.get(i - 1));
			if (last.get(id) == i && parent != i) {
				children.computeIfAbsent(expectedIds.get(parent), key -> new ArrayList<>()).add(id);
			}
		}
		for (String id : last.keySet()) {
			assertThat(tree.getChildren(id)).extracting(EntryLine::id).as(id)
				.containsExactlyElementsOf(children.getOrDefault(id, List.of()));
		}
	}

}

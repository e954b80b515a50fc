package dev.arbor.storage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.session.EntryIds;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session with many lines is scanned in parallel ranges: the result is the file's, in file order, as a scan line by
 * line gives it (docs/SESSION-FORMAT.md §3, §4 and §12).
 */
class SessionFileReaderTests {

	private static final String HEADER = "{\"type\":\"session\",\"version\":3,\"id\":\"many\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}";

	@TempDir
	Path dir;

	@Test
	void readWhenLinesAreManyShouldKeepFileOrderLineNumbersOffsetsAndLaterDuplicates() throws IOException {
		StringBuilder content = new StringBuilder(HEADER).append('\n');
		List<String> expectedIds = new ArrayList<>();
		List<MalformedLine> expectedMalformed = new ArrayList<>();
		String previous = null;
		for (int i = 0; i < 12_000; i++) {
			int lineNumber = i + 2;
			long offset = content.toString().getBytes(StandardCharsets.UTF_8).length;
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
		}
		Path file = Files.writeString(this.dir.resolve("many.jsonl"), content);

		LoadedSession loaded = SessionFileReader.read(file);

		SessionTree tree = loaded.tree();
		assertThat(tree.getEntries()).extracting(EntryLine::id).containsExactlyElementsOf(expectedIds);
		assertThat(loaded.malformedLines()).containsExactlyElementsOf(expectedMalformed);
		assertThat(loaded.lineCount()).isEqualTo(12_001);
		String repeated = expectedIds.get(2499 / 2);
		int later = expectedIds.lastIndexOf(repeated);
		assertThat(tree.requireEntry(repeated)).isSameAs(tree.getEntries().get(later));
		for (int i = 1; i < expectedIds.size(); i++) {
			assertThat(tree.getEntries().get(i).parentId()).isEqualTo(expectedIds.get(i - 1));
		}
	}

}

package dev.arbor.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Lines read into chunks are the file's lines, wherever the chunks end and however long the lines are. */
class FileLinesTests {

	@TempDir
	Path dir;

	@Test
	void readWhenLinesCrossChunksShouldGiveEveryLineWithItsOffset() throws IOException {
		Random random = new Random(14);
		List<byte[]> lines = new ArrayList<>();
		long total = 0;
		while (total < 3L * LineChunks.CHUNK_SIZE) {
			// mostly short lines, some longer than a small chunk, one longer than a full chunk
			int length = (lines.size() == 1000) ? LineChunks.CHUNK_SIZE + 12_345
					: (random.nextInt(50) == 0) ? random.nextInt(2 * LineChunks.SMALL_CHUNK_SIZE) : random.nextInt(700);
			lines.add(line(random, length));
			total += length + 1;
		}
		byte[] content = join(lines, true);
		Path file = Files.write(this.dir.resolve("lines.jsonl"), content);

		FileLines read = FileLines.read(file);

		assertSameLines(read, lines, content);
		assertThat(read.endsWithNewline()).isTrue();
		assertThat(read.length()).isEqualTo(content.length);
	}

	@Test
	void readWhenOneLineSpansWhereStretchesWouldStartShouldGiveItWhole() throws IOException {
		Random random = new Random(11);
		List<byte[]> lines = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			lines.add(line(random, 300));
		}
		lines.add(line(random, (int) (2 * FileLines.PARALLEL_FROM)));
		lines.add(line(random, 10));
		byte[] content = join(lines, true);
		Path file = Files.write(this.dir.resolve("long.jsonl"), content);

		assertSameLines(FileLines.read(file), lines, content);
	}

	@Test
	void readWhenLastLineHasNoNewlineShouldGiveItAsTheLastLine() throws IOException {
		Random random = new Random(7);
		List<byte[]> lines = new ArrayList<>();
		for (int i = 0; i < 2000; i++) {
			lines.add(line(random, random.nextInt(300)));
		}
		byte[] content = join(lines, false);
		Path file = Files.write(this.dir.resolve("torn.jsonl"), content);

		FileLines read = FileLines.read(file);

		assertSameLines(read, lines, content);
		assertThat(read.endsWithNewline()).isFalse();
	}

	@Test
	void readFromAnOffsetShouldNumberLinesFromTheGivenOneAndKeepFileOffsets() throws IOException {
		byte[] content = "{\"a\":1}\n{\"b\":2}\n\n{\"c\":3}\n".getBytes(StandardCharsets.UTF_8);
		Path file = Files.write(this.dir.resolve("tail.jsonl"), content);
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			FileLines read = FileLines.read(channel, 8, 2);
			assertThat(read.count()).isEqualTo(3);
			assertThat(read.lineNumber(0)).isEqualTo(2);
			assertThat(read.offset(0)).isEqualTo(8);
			assertThat(read.offset(2)).isEqualTo(17);
			assertThat(read.isBlank(1)).isTrue();
			assertThat(new String(read.line(2), StandardCharsets.UTF_8)).isEqualTo("{\"c\":3}");
			FileLines slice = read.slice(1, 3);
			assertThat(slice.lineNumber(0)).isEqualTo(3);
			assertThat(slice.offset(1)).isEqualTo(17);
			assertThat(slice.length()).isEqualTo(content.length);
		}
	}

	@Test
	void readWhenFileIsEmptyShouldGiveNoLines() throws IOException {
		FileLines read = FileLines.read(Files.write(this.dir.resolve("empty.jsonl"), new byte[0]));
		assertThat(read.count()).isZero();
		assertThat(read.endsWithNewline()).isTrue();
		assertThat(read.length()).isZero();
	}

	@Test
	void splitShouldCutContentAsReadCutsAFile() throws IOException {
		Random random = new Random(3);
		List<byte[]> lines = new ArrayList<>();
		for (int i = 0; i < 500; i++) {
			lines.add(line(random, random.nextInt(100)));
		}
		byte[] content = join(lines, false);
		assertSameLines(FileLines.split(content), lines, content);
	}

	private static void assertSameLines(FileLines read, List<byte[]> lines, byte[] content) {
		assertThat(read.count()).isEqualTo(lines.size());
		long offset = 0;
		for (int i = 0; i < lines.size(); i++) {
			assertThat(read.offset(i)).as("offset of line %d", i).isEqualTo(offset);
			assertThat(Arrays.equals(read.line(i), lines.get(i))).as("line %d", i).isTrue();
			assertThat(read.lineNumber(i)).isEqualTo(i + 1);
			offset += lines.get(i).length + 1;
		}
		assertThat(offset).isEqualTo(content.length + (read.endsWithNewline() ? 0 : 1));
	}

	private static byte[] line(Random random, int length) {
		byte[] line = new byte[length];
		for (int i = 0; i < length; i++) {
			line[i] = (byte) ('a' + random.nextInt(26));
		}
		return line;
	}

	private static byte[] join(List<byte[]> lines, boolean endWithNewline) {
		int size = lines.stream().mapToInt(line -> line.length + 1).sum() - (endWithNewline ? 0 : 1);
		byte[] content = new byte[size];
		int position = 0;
		for (byte[] line : lines) {
			System.arraycopy(line, 0, content, position, line.length);
			position += line.length;
			if (position < size) {
				content[position++] = '\n';
			}
		}
		return content;
	}

}

package dev.arbor.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A file cut into lines, each copied into an array of its own (the entry keeps it), read through one
 * small buffer: the file is never held whole, so a 128 MB session costs no 128 MB transient array.
 *
 * @param lines the lines without their newlines, in file order
 * @param offsets the byte offset of each line's start in the file
 * @param length where the lines end: the file's length when read whole
 * @param endsWithNewline whether the last byte is a newline (or there are no bytes)
 * @param firstLine the 1-based number in the file of the first of these lines
 */
public record FileLines(List<byte[]> lines, long[] offsets, long length, boolean endsWithNewline, int firstLine) {

	private static final int BUFFER_SIZE = 1 << 20;

	private static final int MIN_BUFFER_SIZE = 8 << 10;

	public static FileLines read(Path file) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			return read(channel, 0, 1);
		}
	}

	/**
	 * The lines from a position to the end of what the channel holds now: what others appended to a file since it
	 * was read up to {@code from}, which must be the start of a line.
	 *
	 * @param channel read with positional reads only: its own position is left alone
	 * @param firstLine the number in the file of the line that starts at {@code from}, for reports
	 */
	public static FileLines read(FileChannel channel, long from, int firstLine) throws IOException {
		List<byte[]> lines = new ArrayList<>();
		long[] offsets = new long[16];
		// A catch-up reads a line or two: its buffer is sized to what is there, up to the buffer of a whole read.
		long expected = Math.max(0, channel.size() - from);
		ByteBuffer buffer = ByteBuffer.allocate((int) Math.max(MIN_BUFFER_SIZE, Math.min(BUFFER_SIZE, expected + 1)));
		byte[] chunk = buffer.array();
		byte[] carry = new byte[0]; // the start of a line that continues in the next chunk
		long position = from;
		long lineStart = from;
		int read;
		while ((read = channel.read(buffer.clear(), position)) > 0) {
			int start = 0;
			for (int i = 0; i < read; i++) {
				if (chunk[i] == '\n') {
					if (lines.size() == offsets.length) {
						offsets = Arrays.copyOf(offsets, offsets.length * 2);
					}
					offsets[lines.size()] = lineStart;
					lines.add(concat(carry, chunk, start, i));
					carry = new byte[0];
					start = i + 1;
					lineStart = position + i + 1;
				}
			}
			carry = concat(carry, chunk, start, read);
			position += read;
		}
		boolean endsWithNewline = carry.length == 0;
		if (!endsWithNewline) {
			if (lines.size() == offsets.length) {
				offsets = Arrays.copyOf(offsets, offsets.length + 1);
			}
			offsets[lines.size()] = lineStart;
			lines.add(carry);
		}
		return new FileLines(lines, Arrays.copyOf(offsets, lines.size()), position, endsWithNewline, firstLine);
	}

	/** The lines of content held in memory (an uploaded file), cut as {@link #read} cuts a file. */
	public static FileLines split(byte[] content) {
		List<byte[]> lines = new ArrayList<>();
		long[] offsets = new long[1024];
		int start = 0;
		while (start < content.length) {
			int end = start;
			while (end < content.length && content[end] != '\n') {
				end++;
			}
			if (lines.size() == offsets.length) {
				offsets = Arrays.copyOf(offsets, offsets.length * 2);
			}
			offsets[lines.size()] = start;
			lines.add(Arrays.copyOfRange(content, start, end));
			start = end + 1;
		}
		boolean endsWithNewline = content.length == 0 || content[content.length - 1] == '\n';
		return new FileLines(lines, Arrays.copyOf(offsets, lines.size()), content.length, endsWithNewline, 1);
	}

	/** The lines from one index to another, taken as complete: each ended by its newline. */
	public FileLines slice(int from, int to) {
		long end = (to < count()) ? this.offsets[to] : this.length;
		return new FileLines(this.lines.subList(from, to), Arrays.copyOfRange(this.offsets, from, to), end, true,
				lineNumber(from));
	}

	/** The number in the file of the line at an index. */
	public int lineNumber(int index) {
		return this.firstLine + index;
	}

	public int count() {
		return this.lines.size();
	}

	public byte[] line(int index) {
		return this.lines.get(index);
	}

	boolean isBlank(int index) {
		for (byte b : this.lines.get(index)) {
			if (b != ' ' && b != '\t' && b != '\r') {
				return false;
			}
		}
		return true;
	}

	private static byte[] concat(byte[] head, byte[] chunk, int from, int to) {
		if (head.length == 0) {
			return Arrays.copyOfRange(chunk, from, to);
		}
		byte[] joined = Arrays.copyOf(head, head.length + to - from);
		System.arraycopy(chunk, from, joined, head.length, to - from);
		return joined;
	}

}

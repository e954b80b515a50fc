package dev.arbor.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.arbor.session.EntryScan;
import dev.arbor.session.MalformedLineException;

/**
 * A file cut into lines. The bytes are read straight into a few large arrays (chunks, each holding whole lines) that
 * the entries then keep: a line costs no array of its own, and a full-size chunk is one the collector allocates
 * outside the young generation and never copies while a session loads. Immutable once read; its lines may be scanned
 * by several threads at once.
 */
public final class FileLines {

	/**
	 * 4 MiB with the array's header: a whole number of G1 regions (of 1, 2 or 4 MiB, heaps up to 16 GB), so a full
	 * chunk goes straight to the old generation and wastes no part of a region.
	 */
	static final int CHUNK_SIZE = (4 << 20) - 16;

	/**
	 * Less than half of the smallest G1 region: the end of a file, and a smaller file, go into chunks of this size,
	 * which are ordinary objects, rather than into one large one that would leave the rest of its last region unused.
	 */
	static final int SMALL_CHUNK_SIZE = 256 << 10;

	/** Each read copies through a temporary direct buffer of its size, which the JDK caches per thread. */
	private static final int READ_SIZE = 1 << 20;

	private final byte[][] chunks;

	/** The file offset of each chunk's first byte. */
	private final long[] chunkOffsets;

	private final int[] chunkOf;

	private final int[] starts;

	private final int[] ends;

	private final int count;

	private final long length;

	private final boolean endsWithNewline;

	private final int firstLine;

	private FileLines(byte[][] chunks, long[] chunkOffsets, int[] chunkOf, int[] starts, int[] ends, int count,
			long length, boolean endsWithNewline, int firstLine) {
		this.chunks = chunks;
		this.chunkOffsets = chunkOffsets;
		this.chunkOf = chunkOf;
		this.starts = starts;
		this.ends = ends;
		this.count = count;
		this.length = length;
		this.endsWithNewline = endsWithNewline;
		this.firstLine = firstLine;
	}

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
		Builder lines = new Builder(firstLine);
		byte[] chunk = new byte[chunkCapacity(0, channel.size() - from)];
		long chunkOffset = from;
		int filled = 0;
		int lineStart = 0;
		while (true) {
			if (filled == chunk.length) {
				long remaining = channel.size() - (chunkOffset + filled);
				if (remaining <= 0) {
					break;
				}
				// Full: the line that continues goes to the start of the next chunk.
				int carry = filled - lineStart;
				byte[] next = new byte[chunkCapacity(carry, remaining)];
				System.arraycopy(chunk, lineStart, next, 0, carry);
				lines.chunkDone(chunk, lineStart, chunkOffset);
				chunk = next;
				chunkOffset += lineStart;
				filled = carry;
				lineStart = 0;
			}
			int read = channel.read(ByteBuffer.wrap(chunk, filled, Math.min(chunk.length - filled, READ_SIZE)),
					chunkOffset + filled);
			if (read <= 0) {
				break;
			}
			for (int i = filled; i < filled + read; i++) {
				if (chunk[i] == '\n') {
					lines.add(lineStart, i);
					lineStart = i + 1;
				}
			}
			filled += read;
		}
		boolean endsWithNewline = lineStart == filled;
		if (!endsWithNewline) {
			lines.add(lineStart, filled);
		}
		lines.chunkDone(chunk, filled, chunkOffset);
		return lines.build(chunkOffset + filled, endsWithNewline);
	}

	/** The lines of content held in memory (an uploaded file), cut as {@link #read} cuts a file; they keep it. */
	public static FileLines split(byte[] content) {
		Builder lines = new Builder(1);
		int start = 0;
		for (int i = 0; i < content.length; i++) {
			if (content[i] == '\n') {
				lines.add(start, i);
				start = i + 1;
			}
		}
		if (start < content.length) {
			lines.add(start, content.length);
		}
		lines.chunkDone(content, content.length, 0);
		return lines.build(content.length, content.length == 0 || content[content.length - 1] == '\n');
	}

	/** The lines from one index to another, taken as complete: each ended by its newline. */
	public FileLines slice(int from, int to) {
		long end = (to < this.count) ? offset(to) : this.length;
		return new FileLines(this.chunks, this.chunkOffsets, Arrays.copyOfRange(this.chunkOf, from, to),
				Arrays.copyOfRange(this.starts, from, to), Arrays.copyOfRange(this.ends, from, to), to - from, end, true,
				lineNumber(from));
	}

	/** The number in the file of the line at an index. */
	public int lineNumber(int index) {
		return this.firstLine + index;
	}

	public int count() {
		return this.count;
	}

	/** Where the lines end: the file's length when read whole. */
	public long length() {
		return this.length;
	}

	/** Whether the last byte is a newline (or there are no bytes). */
	public boolean endsWithNewline() {
		return this.endsWithNewline;
	}

	/** The byte offset in the file of a line's start. */
	public long offset(int index) {
		return this.chunkOffsets[this.chunkOf[index]] + this.starts[index];
	}

	/** A copy of a line's bytes, without its newline. */
	public byte[] line(int index) {
		return Arrays.copyOfRange(this.chunks[this.chunkOf[index]], this.starts[index], this.ends[index]);
	}

	/** Scans a line where it is held: the entry made from it keeps the chunk (see {@link EntryScan#inPlace}). */
	EntryScan scan(int index) throws MalformedLineException {
		return EntryScan.inPlace(this.chunks[this.chunkOf[index]], this.starts[index],
				this.ends[index] - this.starts[index]);
	}

	boolean isBlank(int index) {
		byte[] chunk = this.chunks[this.chunkOf[index]];
		for (int i = this.starts[index]; i < this.ends[index]; i++) {
			byte b = chunk[i];
			if (b != ' ' && b != '\t' && b != '\r') {
				return false;
			}
		}
		return true;
	}

	/**
	 * The size of the next chunk: the carried start of a line, then as much of the rest as fits. What is there is
	 * all a catch-up of one line allocates.
	 */
	private static int chunkCapacity(int carry, long remaining) {
		long all = carry + Math.max(0, remaining);
		long wanted;
		if (all <= SMALL_CHUNK_SIZE) {
			wanted = all;
		}
		else if (all >= CHUNK_SIZE && carry < CHUNK_SIZE / 2) {
			wanted = CHUNK_SIZE;
		}
		else if (carry < SMALL_CHUNK_SIZE / 2) {
			wanted = SMALL_CHUNK_SIZE;
		}
		else {
			wanted = Math.min(all, 2L * carry); // a long line: copied a few times at most while it is read
		}
		if (wanted > Integer.MAX_VALUE - 16) {
			throw new IllegalStateException("A line of more than 2 GB");
		}
		return (int) Math.max(wanted, carry + 1);
	}

	/** Collects lines chunk by chunk. */
	private static final class Builder {

		private final int firstLine;

		private final List<byte[]> chunks = new ArrayList<>();

		private final List<Long> chunkOffsets = new ArrayList<>();

		private int[] chunkOf = new int[16];

		private int[] starts = new int[16];

		private int[] ends = new int[16];

		private int count;

		/** Lines added since the last chunk was done: they lie in the next one. */
		private int pending;

		Builder(int firstLine) {
			this.firstLine = firstLine;
		}

		void add(int start, int end) {
			if (this.count == this.starts.length) {
				int capacity = this.count * 2;
				this.chunkOf = Arrays.copyOf(this.chunkOf, capacity);
				this.starts = Arrays.copyOf(this.starts, capacity);
				this.ends = Arrays.copyOf(this.ends, capacity);
			}
			this.chunkOf[this.count] = this.chunks.size();
			this.starts[this.count] = start;
			this.ends[this.count] = end;
			this.count++;
			this.pending++;
		}

		/**
		 * The lines added since the last call lie in this chunk, before {@code used}; one without lines is dropped,
		 * and one with more than an eighth of it unused (the start of a long line went on to the next) is cut to size.
		 */
		void chunkDone(byte[] chunk, int used, long offset) {
			if (this.pending > 0) {
				this.chunks.add((chunk.length - used > chunk.length / 8) ? Arrays.copyOf(chunk, used) : chunk);
				this.chunkOffsets.add(offset);
				this.pending = 0;
			}
		}

		FileLines build(long length, boolean endsWithNewline) {
			long[] offsets = this.chunkOffsets.stream().mapToLong(Long::longValue).toArray();
			return new FileLines(this.chunks.toArray(new byte[0][]), offsets, Arrays.copyOf(this.chunkOf, this.count),
					Arrays.copyOf(this.starts, this.count), Arrays.copyOf(this.ends, this.count), this.count, length,
					endsWithNewline, this.firstLine);
		}

	}

}

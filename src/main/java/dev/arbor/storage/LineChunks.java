package dev.arbor.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The lines of one stretch of a file, read into chunks: arrays that each hold whole lines, which the entries then
 * keep (see {@link FileLines}). Not thread-safe: one per stretch, and the stretches of a file are read in parallel.
 */
final class LineChunks {

	/**
	 * 4 MiB with the array's header: a whole number of G1 regions (of 1, 2 or 4 MiB, heaps up to 16 GB), so a full
	 * chunk goes straight to the old generation, is never copied by the collector and wastes no part of a region.
	 */
	static final int CHUNK_SIZE = (4 << 20) - 16;

	/**
	 * Less than half of the smallest G1 region: the end of a stretch, and a small file, go into chunks of this size,
	 * ordinary objects, rather than into a large one that would leave the rest of its last region unused.
	 */
	static final int SMALL_CHUNK_SIZE = 256 << 10;

	/** Each read copies through a temporary direct buffer of its size, which the JDK caches per thread. */
	private static final int READ_SIZE = 1 << 20;

	final List<byte[]> chunks = new ArrayList<>();

	/** The file offset of each chunk's first byte. */
	final List<Long> chunkOffsets = new ArrayList<>();

	/** Per line: its chunk, its start and its end (before the newline) in the chunk. */
	int[] chunkOf = new int[16];

	int[] starts = new int[16];

	int[] ends = new int[16];

	int count;

	/** Where the lines read end in the file. */
	long end;

	boolean endsWithNewline;

	/** Lines added since the last chunk was done: they lie in the next one. */
	private int pending;

	private LineChunks() {
	}

	/**
	 * Reads the lines from {@code from}, the start of a line, to {@code until}, the end of one, or to the end of what
	 * the channel holds now when {@code until} is {@link Long#MAX_VALUE}.
	 *
	 * @param channel read with positional reads only: its own position is left alone
	 */
	static LineChunks read(FileChannel channel, long from, long until) throws IOException {
		LineChunks lines = new LineChunks();
		// Sized to what is there: a catch-up of one line keeps an array of one line, not of a chunk.
		byte[] chunk = new byte[capacity(0, Math.min(until, channel.size()) - from)];
		long chunkOffset = from;
		int filled = 0;
		int lineStart = 0;
		while (chunkOffset + filled < until) {
			if (filled == chunk.length) {
				long remaining = Math.min(until, channel.size()) - (chunkOffset + filled);
				if (remaining <= 0) {
					break;
				}
				// Full: the line that continues goes to the start of the next chunk.
				int carry = filled - lineStart;
				byte[] next = new byte[capacity(carry, remaining)];
				System.arraycopy(chunk, lineStart, next, 0, carry);
				lines.chunkDone(chunk, lineStart, chunkOffset);
				chunk = next;
				chunkOffset += lineStart;
				filled = carry;
				lineStart = 0;
			}
			int size = (int) Math.min(Math.min(chunk.length - filled, READ_SIZE), until - (chunkOffset + filled));
			int read = channel.read(ByteBuffer.wrap(chunk, filled, size), chunkOffset + filled);
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
		lines.endsWithNewline = lineStart == filled;
		if (!lines.endsWithNewline) {
			lines.add(lineStart, filled);
		}
		lines.chunkDone(chunk, filled, chunkOffset);
		lines.end = chunkOffset + filled;
		return lines;
	}

	/** The lines of content held in memory, which they keep. */
	static LineChunks of(byte[] content) {
		LineChunks lines = new LineChunks();
		int start = 0;
		for (int i = 0; i < content.length; i++) {
			if (content[i] == '\n') {
				lines.add(start, i);
				start = i + 1;
			}
		}
		lines.endsWithNewline = start == content.length;
		if (!lines.endsWithNewline) {
			lines.add(start, content.length);
		}
		lines.chunkDone(content, content.length, 0);
		lines.end = content.length;
		return lines;
	}

	/**
	 * The size of the next chunk: the carried start of a line, then as much of the rest as fits.
	 *
	 * @param remaining what there is to read after the carried bytes
	 */
	private static int capacity(int carry, long remaining) {
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

	private void add(int start, int end) {
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
	 * The lines added since the last call lie in this chunk, before {@code used}; one without lines is dropped, and
	 * one with more than an eighth of it unused (the start of a long line went on to the next) is cut to size.
	 */
	private void chunkDone(byte[] chunk, int used, long offset) {
		if (this.pending > 0) {
			this.chunks.add((chunk.length - used > chunk.length / 8) ? Arrays.copyOf(chunk, used) : chunk);
			this.chunkOffsets.add(offset);
			this.pending = 0;
		}
	}

}

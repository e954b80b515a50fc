package dev.arbor.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import dev.arbor.session.EntryScan;
import dev.arbor.session.MalformedLineException;

/**
 * A file cut into lines. The bytes are read straight into a few large arrays (chunks, each holding whole lines) that
 * the entries then keep: a line costs no array of its own, and a full-size chunk is one the collector allocates
 * outside the young generation and never copies while a session loads (see {@link LineChunks}). A large file is cut
 * into stretches at line boundaries, read on all cores, then put back together in file order. Immutable once read;
 * its lines may be scanned by several threads at once.
 */
public final class FileLines {

	/** Smaller files are read on the caller's thread: a stretch is worth a thread from about this size on. */
	static final long PARALLEL_FROM = 8 << 20;

	/** How much is read at a time while looking for where a stretch's first line starts. */
	private static final int PROBE_SIZE = 8 << 10;

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
		long[] bounds = stretches(channel, from, channel.size());
		if (bounds.length == 1) {
			return of(List.of(LineChunks.read(channel, from, Long.MAX_VALUE)), firstLine);
		}
		LineChunks[] stretches = new LineChunks[bounds.length];
		try {
			IntStream.range(0, bounds.length).parallel().forEach(k -> {
				long until = (k + 1 < bounds.length) ? bounds[k + 1] : Long.MAX_VALUE;
				try {
					stretches[k] = LineChunks.read(channel, bounds[k], until);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
		return of(Arrays.asList(stretches), firstLine);
	}

	/** The lines of content held in memory (an uploaded file), cut as {@link #read} cuts a file; they keep it. */
	public static FileLines split(byte[] content) {
		return of(List.of(LineChunks.of(content)), 1);
	}

	/**
	 * Where the stretches a file is read in start: {@code from}, then, for each further core, the start of the first
	 * line at or after an equal share of the bytes. A line longer than a share leaves fewer stretches.
	 */
	private static long[] stretches(FileChannel channel, long from, long size) throws IOException {
		int cores = Runtime.getRuntime().availableProcessors();
		if (size - from < PARALLEL_FROM || cores < 2) {
			return new long[] { from };
		}
		long[] bounds = new long[cores];
		int count = 1;
		bounds[0] = from;
		for (int k = 1; k < cores; k++) {
			long start = lineStartFrom(channel, from + (size - from) * k / cores, size);
			if (start > bounds[count - 1] && start < size) {
				bounds[count++] = start;
			}
		}
		return Arrays.copyOf(bounds, count);
	}

	/** The start of the first line at or after {@code position}: after the first newline from the byte before it. */
	private static long lineStartFrom(FileChannel channel, long position, long size) throws IOException {
		ByteBuffer probe = ByteBuffer.allocate(PROBE_SIZE);
		long at = position - 1;
		while (at < size) {
			int read = channel.read(probe.clear(), at);
			if (read <= 0) {
				break;
			}
			for (int i = 0; i < read; i++) {
				if (probe.get(i) == '\n') {
					return at + i + 1;
				}
			}
			at += read;
		}
		return size;
	}

	/** The stretches' lines in file order, numbered from {@code firstLine}. */
	private static FileLines of(List<LineChunks> stretches, int firstLine) {
		int count = 0;
		int chunkCount = 0;
		for (LineChunks stretch : stretches) {
			count += stretch.count;
			chunkCount += stretch.chunks.size();
		}
		byte[][] chunks = new byte[chunkCount][];
		long[] chunkOffsets = new long[chunkCount];
		int[] chunkOf = new int[count];
		int[] starts = new int[count];
		int[] ends = new int[count];
		int line = 0;
		int chunk = 0;
		for (LineChunks stretch : stretches) {
			for (int i = 0; i < stretch.count; i++) {
				chunkOf[line + i] = chunk + stretch.chunkOf[i];
			}
			System.arraycopy(stretch.starts, 0, starts, line, stretch.count);
			System.arraycopy(stretch.ends, 0, ends, line, stretch.count);
			for (int c = 0; c < stretch.chunks.size(); c++) {
				chunks[chunk + c] = stretch.chunks.get(c);
				chunkOffsets[chunk + c] = stretch.chunkOffsets.get(c);
			}
			line += stretch.count;
			chunk += stretch.chunks.size();
		}
		LineChunks last = stretches.get(stretches.size() - 1);
		return new FileLines(chunks, chunkOffsets, chunkOf, starts, ends, count, last.end, last.endsWithNewline,
				firstLine);
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

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/** Compares bytes of a file with bytes in memory, with positional reads that leave the channel's position alone. */
final class FileRegions {

	/**
	 * How much of a write identifies it: an entry's line starts with its type and id, so no line of another
	 * writer starts with the same bytes.
	 */
	static final int HEAD_SIZE = 256;

	private FileRegions() {
	}

	/** The first bytes of what is left in the buffer, which keeps its position. */
	static byte[] head(ByteBuffer buffer) {
		byte[] head = new byte[Math.min(HEAD_SIZE, buffer.remaining())];
		buffer.duplicate().get(head);
		return head;
	}

	/** Whether the file holds exactly these bytes at this position. */
	static boolean holds(FileChannel channel, long position, byte[] expected) throws IOException {
		return Arrays.equals(read(channel, position, expected.length), expected);
	}

	/** Up to {@code length} bytes from a position; fewer where the file ends before. */
	static byte[] read(FileChannel channel, long position, int length) throws IOException {
		ByteBuffer buffer = ByteBuffer.allocate(length);
		long at = position;
		int read;
		while (buffer.hasRemaining() && (read = channel.read(buffer, at)) > 0) {
			at += read;
		}
		return Arrays.copyOf(buffer.array(), buffer.position());
	}

}

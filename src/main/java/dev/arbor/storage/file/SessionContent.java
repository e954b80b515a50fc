package dev.arbor.storage.file;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionLines;

/** The bytes of a session file, whole ({@link SessionLines}) or appended. */
final class SessionContent {

	private SessionContent() {
	}

	/** A whole file, for {@link AtomicFiles#replace}. */
	static AtomicFiles.ContentWriter of(SessionLines lines) {
		return channel -> {
			// Not closed: closing the stream would close the channel before it is forced.
			OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20);
			lines.writeTo(out);
			out.flush();
		};
	}

	/** Lines to append, each ended by its newline. */
	static ByteBuffer lines(List<EntryLine> entries) {
		ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(length(entries)));
		for (EntryLine entry : entries) {
			buffer.put(entry.bytes());
			buffer.put((byte) '\n');
		}
		return buffer.flip();
	}

	/** The bytes {@link #lines} takes. */
	static long length(List<EntryLine> entries) {
		long size = 0;
		for (EntryLine entry : entries) {
			size += entry.length() + 1;
		}
		return size;
	}

}

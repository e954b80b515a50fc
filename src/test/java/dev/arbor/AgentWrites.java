package dev.arbor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

import dev.arbor.session.Json;
import dev.arbor.session.Timestamps;
import org.jspecify.annotations.Nullable;

/**
 * Writes to a session file as the coding agents do ({@code appendFileSync}): open in append mode, one write, close,
 * and no lock. In the test's own process: closing the descriptor drops Arbor's POSIX lock on the file, which only
 * matters to a second Arbor process, and there is none.
 */
public final class AgentWrites {

	private AgentWrites() {
	}

	/** One write of the text, in append mode; the file is created if missing. */
	public static void append(Path file, String text) {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.APPEND)) {
			ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
			while (bytes.hasRemaining()) {
				channel.write(bytes);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A user message entry as upstream writes it: one line of JSON, without its newline. */
	public static String userMessage(String id, @Nullable String parentId, String text) {
		return "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":"
				+ ((parentId != null) ? "\"" + parentId + "\"" : "null") + ",\"timestamp\":\"" + Timestamps.format(Instant.now())
				+ "\",\"message\":{\"role\":\"user\",\"content\":" + Json.quote(text) + ",\"timestamp\":"
				+ System.currentTimeMillis() + "}}";
	}

}

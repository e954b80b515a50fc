package dev.arbor.copy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Objects;

import dev.arbor.session.SessionLines;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;

/**
 * A session as its export gives it (the version-3 file, byte for byte) with its leaf, both taken at once under the
 * store's read lock, as {@code SessionOperations.export} takes them. Two stores hold the same session when these
 * are equal: the lines carry every entry's stored bytes, so numbers, unknown fields and order are compared too.
 */
final class ExportedSession {

	private final byte[] bytes;

	private final int entryCount;

	private final @Nullable String leafId;

	private ExportedSession(byte[] bytes, int entryCount, @Nullable String leafId) {
		this.bytes = bytes;
		this.entryCount = entryCount;
		this.leafId = leafId;
	}

	/**
	 * @throws SessionNotFoundException when the store has no such session
	 */
	static ExportedSession of(SessionStore store, String sessionId) {
		Taken taken = store.read(sessionId, tree -> new Taken(SessionLines.of(tree), tree.leafId()));
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try {
			taken.lines().writeTo(out);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex); // a ByteArrayOutputStream throws none
		}
		return new ExportedSession(out.toByteArray(), taken.lines().entries().size(), taken.leafId());
	}

	/** The session's export, or {@code null} when the store has none of that id. */
	static @Nullable ExportedSession find(SessionStore store, String sessionId) {
		try {
			return of(store, sessionId);
		}
		catch (SessionNotFoundException ex) {
			return null;
		}
	}

	/** The file's bytes: what the target imports. */
	byte[] bytes() {
		return this.bytes;
	}

	int entryCount() {
		return this.entryCount;
	}

	@Nullable String leafId() {
		return this.leafId;
	}

	/**
	 * How this export (the target's) differs from the source's, in words, or {@code null} when it does not.
	 *
	 * @param source the source's export of the same session
	 */
	@Nullable String differenceFrom(ExportedSession source) {
		int mismatch = Arrays.mismatch(this.bytes, source.bytes);
		if (mismatch >= 0) {
			return "line " + lineAt(this.bytes, mismatch) + " of its export is not the source's (" + this.entryCount
					+ " entries here, " + source.entryCount + " in the source)";
		}
		if (!Objects.equals(this.leafId, source.leafId)) {
			return "its leaf is " + describe(this.leafId) + ", the source's " + describe(source.leafId);
		}
		return null;
	}

	/** The line, counted from 1, that the byte at this index belongs to. */
	private static int lineAt(byte[] bytes, int index) {
		int line = 1;
		for (int i = 0; i < index && i < bytes.length; i++) {
			if (bytes[i] == '\n') {
				line++;
			}
		}
		return line;
	}

	private static String describe(@Nullable String leafId) {
		return (leafId != null) ? leafId : "none (before the first entry)";
	}

	/** What the read lock is held for: the lines are a copy, written out after it is released. */
	private record Taken(SessionLines lines, @Nullable String leafId) {
	}

}

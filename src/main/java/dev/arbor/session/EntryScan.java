package dev.arbor.session;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * The top-level fields of one line and {@code message.role}, read by {@link LineScanner}, which
 * validates the whole line without building it. This is the whole per-line cost of opening a session.
 *
 * @param json the line's bytes (owned: a copy of the file's)
 * @param type the {@code type} field
 * @param id the {@code id} field when it is a string (version 1 files have none)
 * @param parentId the {@code parentId} field when it is a string
 * @param timestamp epoch milliseconds of {@code timestamp}, or {@link Timestamps#UNKNOWN}
 * @param messageStart offset of the {@code message} object, or -1
 * @param messageEnd offset just past the {@code message} object, or -1
 * @param role {@code message.role} when it is a string
 */
public record EntryScan(byte[] json, String type, @Nullable String id, @Nullable String parentId, long timestamp,
		int messageStart, int messageEnd, @Nullable String role) {

	/** Scans a line; the array becomes the entry's own, so pass a copy of shared buffers. */
	public static EntryScan of(byte[] json) throws MalformedLineException {
		return LineScanner.scan(json);
	}

	public static EntryScan of(byte[] buffer, int offset, int length) throws MalformedLineException {
		return of(Arrays.copyOfRange(buffer, offset, offset + length));
	}

	/** The entry this line holds, with the given identity (migrations assign it; v3 files store it). */
	public EntryLine toLine(String entryId, @Nullable String entryParentId) {
		return new EntryLine(entryId, entryParentId, this.type, this.timestamp, this.json, this.messageStart,
				this.messageEnd, this.role);
	}

	@Override
	public String toString() {
		return "EntryScan[type=" + this.type + ", id=" + this.id + "]";
	}

}

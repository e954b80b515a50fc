package dev.arbor.session;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * The top-level fields of one line and {@code message.role}, read by {@link LineScanner}, which validates the whole
 * line without building it. This is the whole per-line cost of opening a session. Ids of 8 lowercase hex digits are
 * read as numbers (see {@link HexIds}): a load makes no string for them.
 * <p>
 * The line stays where it was read: the scan, and the entry made from it, refer to the array that holds it.
 */
public final class EntryScan {

	private final byte[] buffer;

	private final int offset;

	private final int length;

	private final String type;

	private final @Nullable String textId;

	private final long hexId;

	private final @Nullable String textParentId;

	private final long hexParentId;

	private final long timestamp;

	private final int messageStart;

	private final int messageEnd;

	private final @Nullable String role;

	/**
	 * The message has no content text that is not blank and did not end in an error or an abort
	 * (docs/SESSION-FORMAT.md#the-selector-rows).
	 */
	private final boolean nothingToRead;

	EntryScan(byte[] buffer, int offset, int length, String type, @Nullable String textId, long hexId,
			@Nullable String textParentId, long hexParentId, long timestamp, int messageStart, int messageEnd,
			@Nullable String role, boolean nothingToRead) {
		this.buffer = buffer;
		this.offset = offset;
		this.length = length;
		this.type = type;
		this.textId = textId;
		this.hexId = hexId;
		this.textParentId = textParentId;
		this.hexParentId = hexParentId;
		this.timestamp = timestamp;
		this.messageStart = messageStart;
		this.messageEnd = messageEnd;
		this.role = role;
		this.nothingToRead = nothingToRead;
	}

	/** Scans a line; the array becomes the entry's own, so pass a copy of shared buffers. */
	public static EntryScan of(byte[] json) throws MalformedLineException {
		return LineScanner.scan(json);
	}

	/**
	 * Scans the line that {@code buffer} holds at {@code offset}, in place: the entry made from it keeps the whole
	 * array, which nobody may change afterwards.
	 */
	public static EntryScan inPlace(byte[] buffer, int offset, int length) throws MalformedLineException {
		return LineScanner.scan(buffer, offset, offset + length);
	}

	/** The {@code type} field. */
	public String type() {
		return this.type;
	}

	/** The {@code id} field when it is a string (version 1 files have none). */
	public @Nullable String id() {
		return (this.hexId != HexIds.NOT_HEX) ? EntryIds.hex8((int) this.hexId) : this.textId;
	}

	/** Whether the {@code id} field is a string. */
	public boolean hasId() {
		return this.hexId != HexIds.NOT_HEX || this.textId != null;
	}

	/** The {@code parentId} field when it is a string. */
	public @Nullable String parentId() {
		return (this.hexParentId != HexIds.NOT_HEX) ? EntryIds.hex8((int) this.hexParentId) : this.textParentId;
	}

	/** The {@code id} field when it is a string not in hex form. */
	public @Nullable String textId() {
		return this.textId;
	}

	/** The {@code parentId} field when it is a string not in hex form. */
	public @Nullable String textParentId() {
		return this.textParentId;
	}

	/** Epoch milliseconds of {@code timestamp}, or {@link Timestamps#UNKNOWN}. */
	public long timestamp() {
		return this.timestamp;
	}

	/** Offset of the {@code message} object in the array the line is held in, or -1. */
	public int messageStart() {
		return this.messageStart;
	}

	/** Offset just past the {@code message} object in the array the line is held in, or -1. */
	public int messageEnd() {
		return this.messageEnd;
	}

	/** {@code message.role} when it is a string. */
	public @Nullable String role() {
		return this.role;
	}

	/** A copy of the line's bytes. */
	public byte[] json() {
		return Arrays.copyOfRange(this.buffer, this.offset, this.offset + this.length);
	}

	/** The entry this line holds, with the given identity (migrations assign it). */
	public EntryLine toLine(String entryId, @Nullable String entryParentId) {
		return new EntryLine(entryId, entryParentId, this.type, this.timestamp, this.buffer, this.offset, this.length,
				this.messageStart, this.messageEnd, this.role, this.nothingToRead);
	}

	/**
	 * The entry this line holds, with the identity it stores (it must have an id).
	 *
	 * @param sharedTextParentId {@link #textParentId()}, or an equal string that other entries hold already, so
	 * that they share one
	 */
	public EntryLine toLine(@Nullable String sharedTextParentId) {
		if (!hasId()) {
			throw new IllegalStateException("The line has no string id");
		}
		return new EntryLine(this.textId, this.hexId, sharedTextParentId, this.hexParentId, this.type, this.timestamp,
				this.buffer, this.offset, this.length, this.messageStart, this.messageEnd, this.role, this.nothingToRead);
	}

	@Override
	public String toString() {
		return "EntryScan[type=" + this.type + ", id=" + id() + "]";
	}

}

package dev.arbor.session;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One entry of a session: the exact line it was stored as (UTF-8, without the newline) and the few
 * fields the tree needs indexed. All output starts from the stored bytes, so unknown fields and
 * unknown types round-trip untouched (docs/SESSION-FORMAT.md#a-file-line-by-line).
 * <p>
 * Bytes rather than a {@code String}: Java stores any string with one non-Latin-1 character in two
 * bytes per character, and a loaded session must cost little more than its file. The bytes may be a range of a
 * larger array that holds many lines, as a session file is read (see {@code FileLines}): one array per line would
 * cost its header, and the collector would copy every line at least once while the session loads. Immutable.
 */
public final class EntryLine {

	private static final int NO_MESSAGE = -1;

	/** The id unless it is 8 lowercase hex digits; then {@link #hexId} holds it (see {@link HexIds}). */
	private final @Nullable String id;

	private final int hexId;

	/** The parent id unless it is absent or 8 lowercase hex digits (then {@link #hexParentId}). */
	private final @Nullable String parentId;

	private final int hexParentId;

	private final boolean hexParent;

	private final String type;

	private final long timestamp;

	/** Holds the line from {@link #offset}, for {@link #length} bytes; never changed. */
	private final byte[] json;

	private final int offset;

	private final int length;

	/** Where the {@code message} object starts in {@link #json}, or {@link #NO_MESSAGE}. */
	private final int messageStart;

	private final int messageEnd;

	private final @Nullable String role;

	/** Read with the line (see {@link ContentText}): meaningful for an assistant's message only. */
	private final boolean nothingToRead;

	EntryLine(String id, @Nullable String parentId, String type, long timestamp, byte[] json, int offset, int length,
			int messageStart, int messageEnd, @Nullable String role, boolean nothingToRead) {
		this(textOrNull(Objects.requireNonNull(id, "id")), HexIds.parse(id), textOrNull(parentId),
				(parentId != null) ? HexIds.parse(parentId) : HexIds.NOT_HEX, type, timestamp, json, offset, length,
				messageStart, messageEnd, role, nothingToRead);
	}

	/**
	 * @param textId the id unless it is in hex form
	 * @param hexId the id's value in hex form, else {@link HexIds#NOT_HEX}
	 * @param textParentId the parent id unless it is absent or in hex form
	 * @param hexParentId the parent id's value in hex form, else {@link HexIds#NOT_HEX}
	 */
	EntryLine(@Nullable String textId, long hexId, @Nullable String textParentId, long hexParentId, String type,
			long timestamp, byte[] json, int offset, int length, int messageStart, int messageEnd,
			@Nullable String role, boolean nothingToRead) {
		if ((textId == null) == (hexId == HexIds.NOT_HEX)) {
			throw new IllegalArgumentException("An entry has exactly one id");
		}
		this.id = textId;
		this.hexId = (int) hexId;
		this.hexParent = hexParentId != HexIds.NOT_HEX;
		this.parentId = this.hexParent ? null : textParentId;
		this.hexParentId = (int) hexParentId;
		this.type = Objects.requireNonNull(type, "type");
		this.timestamp = timestamp;
		this.json = json;
		this.offset = offset;
		this.length = length;
		this.messageStart = messageStart;
		this.messageEnd = messageEnd;
		this.role = role;
		this.nothingToRead = nothingToRead;
	}

	private static @Nullable String textOrNull(@Nullable String id) {
		return (id != null && !HexIds.isHex(id)) ? id : null;
	}

	/** Reads one stored line; the bytes must be one JSON object with a string {@code id} and {@code type}. */
	public static EntryLine of(byte[] utf8) {
		try {
			EntryScan scan = EntryScan.of(utf8);
			if (!scan.hasId()) {
				throw new IllegalArgumentException("Entry has no string id");
			}
			return scan.toLine(scan.textParentId());
		}
		catch (MalformedLineException ex) {
			throw new IllegalArgumentException(ex.getMessage(), ex);
		}
	}

	public static EntryLine of(JsonNode entry) {
		return of(Json.toBytes(entry));
	}

	public String id() {
		return (this.id != null) ? this.id : EntryIds.hex8(this.hexId);
	}

	/**
	 * Copies the id's characters into {@code buffer} from its start, for writers that make no string of it (a tree
	 * view writes each id two or three times).
	 *
	 * @return how many characters, or -1 when they do not fit
	 */
	public int idChars(char[] buffer) {
		if (this.id == null) {
			return (buffer.length >= 8) ? EntryIds.hex8(this.hexId, buffer) : -1;
		}
		if (this.id.length() > buffer.length) {
			return -1;
		}
		this.id.getChars(0, this.id.length(), buffer, 0);
		return this.id.length();
	}

	/** The stored {@code parentId}; it may name no loaded entry (then this entry is a root). */
	public @Nullable String parentId() {
		return this.hexParent ? EntryIds.hex8(this.hexParentId) : this.parentId;
	}

	// identity without making strings, for the id index

	boolean hasId(String other) {
		return (this.id != null) ? this.id.equals(other) : HexIds.parse(other) == (this.hexId & 0xffffffffL);
	}

	boolean hasSameId(EntryLine other) {
		return (this.id != null) ? this.id.equals(other.id) : (other.id == null && this.hexId == other.hexId);
	}

	boolean hasHexId(int value) {
		return this.id == null && this.hexId == value;
	}

	int idHash() {
		return (this.id != null) ? this.id.hashCode() : HexIds.hash(this.hexId);
	}

	boolean isHexId() {
		return this.id == null;
	}

	int hexId() {
		return this.hexId;
	}

	boolean hasHexParent() {
		return this.hexParent;
	}

	int hexParentId() {
		return this.hexParentId;
	}

	/** The parent id when it is not in hex form (or absent). */
	@Nullable String textParentId() {
		return this.parentId;
	}

	public String type() {
		return this.type;
	}

	/** Epoch milliseconds of {@code timestamp}, or {@link Timestamps#UNKNOWN}. */
	public long timestamp() {
		return this.timestamp;
	}

	public boolean isType(String type) {
		return this.type.equals(type);
	}

	/** The stored line as text. */
	public String json() {
		return new String(this.json, this.offset, this.length, StandardCharsets.UTF_8);
	}

	/** The whole entry as a fresh, mutable tree (callers may change their copy freely). */
	public ObjectNode toNode() {
		return Json.parseObject(this.json, this.offset, this.length);
	}

	/** Size of the stored line in bytes, without the newline. */
	public int length() {
		return this.length;
	}

	/** A copy of the stored bytes. */
	public byte[] bytes() {
		return Arrays.copyOfRange(this.json, this.offset, this.offset + this.length);
	}

	/** The stored bytes, read-only and not copied: for writers that copy them straight into their own buffer. */
	public ByteBuffer buffer() {
		return ByteBuffer.wrap(this.json, this.offset, this.length).slice().asReadOnlyBuffer();
	}

	public void writeTo(OutputStream out) throws IOException {
		out.write(this.json, this.offset, this.length);
	}

	/** Whether the entry's {@code message} field is a JSON object whose bytes are indexed. */
	public boolean hasMessageObject() {
		return this.messageStart != NO_MESSAGE;
	}

	/**
	 * The {@code message} object of a {@code message} entry exactly as stored, without parsing the rest
	 * of the line: the agent view of the context is made of these (docs/SESSION-FORMAT.md#the-model-context).
	 */
	public String messageJson() {
		if (!hasMessageObject()) {
			throw new IllegalStateException("Entry " + id() + " has no message object");
		}
		return new String(this.json, this.messageStart, this.messageEnd - this.messageStart, StandardCharsets.UTF_8);
	}

	/** The bytes of {@link #messageJson()}, read-only and not copied. */
	public ByteBuffer messageBuffer() {
		if (!hasMessageObject()) {
			throw new IllegalStateException("Entry " + id() + " has no message object");
		}
		return ByteBuffer.wrap(this.json, this.messageStart, this.messageEnd - this.messageStart).slice().asReadOnlyBuffer();
	}

	/** The {@code message} object as a fresh tree. */
	public ObjectNode messageNode() {
		if (!hasMessageObject()) {
			throw new IllegalStateException("Entry " + id() + " has no message object");
		}
		return Json.parseObject(this.json, this.messageStart, this.messageEnd - this.messageStart);
	}

	/** {@code message.role} of a {@code message} entry, indexed on load; {@code null} when it has none. */
	public @Nullable String messageRole() {
		return this.role;
	}

	/** The role and model fields of the message, read without building a tree. */
	public MessageHead messageHead() {
		if (!hasMessageObject()) {
			return MessageHead.NONE;
		}
		return MessageHead.scan(this.json, this.messageStart, this.messageEnd - this.messageStart);
	}

	/**
	 * What the selector shows and searches of the message, read without building a tree
	 * (docs/SESSION-FORMAT.md#the-selector-rows).
	 */
	MessageText messageText() {
		if (!hasMessageObject()) {
			return MessageText.NONE;
		}
		return MessageText.scan(this.json, this.messageStart, this.messageEnd - this.messageStart);
	}

	/**
	 * Whether this is an assistant message with nothing to read, which the selector hides
	 * (docs/SESSION-FORMAT.md#the-selector-rows).
	 */
	boolean isSilentAssistant() {
		return "assistant".equals(this.role) && hasMessageObject() && this.nothingToRead;
	}

	/** Same stored bytes; two lines with equal text are equal. */
	@Override
	public boolean equals(Object other) {
		return (this == other) || (other instanceof EntryLine line && Arrays.equals(this.json, this.offset,
				this.offset + this.length, line.json, line.offset, line.offset + line.length));
	}

	/** {@link Arrays#hashCode(byte[])} of the stored bytes. */
	@Override
	public int hashCode() {
		int hash = 1;
		for (int i = this.offset; i < this.offset + this.length; i++) {
			hash = 31 * hash + this.json[i];
		}
		return hash;
	}

	@Override
	public String toString() {
		return json();
	}

}

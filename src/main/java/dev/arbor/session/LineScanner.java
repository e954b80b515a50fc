package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A validating JSON scanner for one stored line: it checks the whole line against RFC 8259 and picks
 * out the top-level fields an entry is indexed by, plus {@code message.role}, building nothing else.
 * Opening a session is one pass of this per line; a general parser spent most of it on tokens nobody reads.
 * <p>
 * Strings must be valid UTF-8 (RFC 8259, section 8.1), nesting at most {@value JsonCursor#MAX_DEPTH} deep and numbers
 * such as {@link JsonNumber} holds, as Jackson requires when the entry is read later, so a line this accepts always
 * parses. The steps over the line are {@link JsonCursor}'s.
 */
final class LineScanner {

	private static final int TOP_LEVEL = 1;

	private static final int MESSAGE = 2;

	/** The stop reasons agents write, read without allocating. */
	private static final List<String> STOP_REASONS = List.of("stop", "toolUse", "length", "error", "aborted");

	private final JsonCursor in;

	private @Nullable String type;

	private @Nullable String id;

	private long hexId = HexIds.NOT_HEX;

	private @Nullable String parentId;

	private long hexParentId = HexIds.NOT_HEX;

	/** The id that {@link #idValue} read last, when it is not in hex form. */
	private @Nullable String textId;

	private long timestamp = Timestamps.UNKNOWN;

	private int messageStart = -1;

	private int messageEnd = -1;

	private @Nullable String role;

	/** Whether the message's content holds text that is not blank. */
	private boolean contentHasText;

	/** Whether the message's {@code stopReason} is one besides {@code stop} and {@code toolUse}: an error, an abort. */
	private boolean endedBadly;

	private int keyStart;

	private int keyEnd;

	private @Nullable String decodedKey;

	private LineScanner(byte[] bytes, int start, int end) {
		this.in = new JsonCursor(bytes, start, end);
	}

	static EntryScan scan(byte[] json) throws MalformedLineException {
		return scan(json, 0, json.length);
	}

	/** Scans the line held in {@code bytes} from {@code start} to {@code end}; the scan refers to the array. */
	static EntryScan scan(byte[] bytes, int start, int end) throws MalformedLineException {
		LineScanner scanner = new LineScanner(bytes, start, end);
		scanner.scanLine();
		if (scanner.type == null) {
			throw new MalformedLineException("no string \"type\" field");
		}
		return new EntryScan(bytes, start, end - start, scanner.type, scanner.id, scanner.hexId, scanner.parentId,
				scanner.hexParentId, scanner.timestamp, scanner.messageStart, scanner.messageEnd, scanner.role,
				!scanner.contentHasText && !scanner.endedBadly);
	}

	private void scanLine() throws MalformedLineException {
		this.in.skipWhitespace();
		if (this.in.peek() != '{') {
			throw new MalformedLineException("not a JSON object");
		}
		object(1, TOP_LEVEL);
		this.in.skipWhitespace();
		if (this.in.pos != this.in.end) {
			throw this.in.error("trailing content after the JSON object");
		}
	}

	private void topLevelMember() throws MalformedLineException {
		if (keyIs("type")) {
			this.type = stringValue(EntryTypes.NAMES);
		}
		else if (keyIs("id")) {
			this.hexId = idValue();
			this.id = this.textId;
		}
		else if (keyIs("parentId")) {
			this.hexParentId = idValue();
			this.parentId = this.textId;
		}
		else if (keyIs("timestamp")) {
			timestamp();
		}
		else if (keyIs("message")) {
			message();
		}
		else {
			this.in.skipValue(2);
		}
	}

	private void timestamp() throws MalformedLineException {
		this.timestamp = Timestamps.UNKNOWN;
		if (this.in.peek() != '"') {
			this.in.skipValue(2);
			return;
		}
		int start = this.in.pos + 1;
		boolean escaped = this.in.string();
		int end = this.in.pos - 1;
		this.timestamp = escaped ? Timestamps.parseMillis(this.in.decode(start, end))
				: Timestamps.parseMillis(this.in.bytes, start, end - start);
	}

	/**
	 * An id: 8 lowercase hex digits, the form agents write, are read as a number without making a string (see
	 * {@link HexIds}); any other string is kept as text in {@link #textId}, and any other value is no id.
	 *
	 * @return the hex form's value, else {@link HexIds#NOT_HEX}
	 */
	private long idValue() throws MalformedLineException {
		this.textId = null;
		if (this.in.peek() != '"') {
			this.in.skipValue(2);
			return HexIds.NOT_HEX;
		}
		int valueStart = this.in.pos + 1;
		boolean escaped = this.in.string();
		int valueEnd = this.in.pos - 1;
		long hex = escaped ? HexIds.NOT_HEX : HexIds.parse(this.in.bytes, valueStart, valueEnd - valueStart);
		if (hex == HexIds.NOT_HEX) {
			this.textId = escaped ? this.in.decode(valueStart, valueEnd)
					: new String(this.in.bytes, valueStart, valueEnd - valueStart, StandardCharsets.UTF_8);
		}
		return hex;
	}

	/** The {@code message} value: its byte range when it is an object, and its {@code role}. */
	private void message() throws MalformedLineException {
		this.role = null;
		this.contentHasText = false;
		this.endedBadly = false;
		this.messageStart = -1;
		this.messageEnd = -1;
		if (this.in.peek() != '{') {
			this.in.skipValue(2);
			return;
		}
		int start = this.in.pos;
		object(2, MESSAGE);
		this.messageStart = start;
		this.messageEnd = this.in.pos;
	}

	/** The stop reason, when it is a string: the last one read counts, as for any member read twice. */
	private void stopReason() throws MalformedLineException {
		String reason = stringValue(STOP_REASONS);
		if (reason != null) {
			// Upstream's selector shows every assistant that stopped for another reason than stop or toolUse.
			this.endedBadly = !reason.isEmpty() && !"stop".equals(reason) && !"toolUse".equals(reason);
		}
	}

	/**
	 * A string value, or {@code null} (after skipping it) when the value is not a string. Values that
	 * are usually one of a few names (entry types, roles) come back as the shared instance, without
	 * allocating.
	 */
	private @Nullable String stringValue(List<String> knownNames) throws MalformedLineException {
		if (this.in.peek() != '"') {
			this.in.skipValue(2);
			return null;
		}
		int start = this.in.pos + 1;
		boolean escaped = this.in.string();
		int end = this.in.pos - 1;
		if (!escaped) {
			for (String name : knownNames) {
				if (this.in.bytesEqual(name, start, end)) {
					return name;
				}
			}
			return new String(this.in.bytes, start, end - start, StandardCharsets.UTF_8);
		}
		String value = this.in.decode(start, end);
		int index = knownNames.indexOf(value);
		return (index >= 0) ? knownNames.get(index) : value;
	}

	/** An object starting at its brace: the line itself, or the message. */
	private void object(int depth, int kind) throws MalformedLineException {
		this.in.checkDepth(depth);
		this.in.pos++;
		this.in.skipWhitespace();
		if (this.in.peek() == '}') {
			this.in.pos++;
			return;
		}
		do {
			this.in.skipWhitespace();
			this.keyStart = this.in.pos + 1;
			boolean escaped = this.in.string();
			this.keyEnd = this.in.pos - 1;
			this.decodedKey = escaped ? this.in.decode(this.keyStart, this.keyEnd) : null;
			this.in.skipWhitespace();
			this.in.expect(':');
			this.in.skipWhitespace();
			switch (kind) {
				case TOP_LEVEL -> topLevelMember();
				default -> {
					if (keyIs("role")) {
						this.role = stringValue(Roles.NAMES);
					}
					else if (keyIs("content")) {
						this.contentHasText |= ContentText.read(this.in, depth + 1);
					}
					else if (keyIs("stopReason")) {
						stopReason();
					}
					else {
						this.in.skipValue(depth + 1);
					}
				}
			}
			this.in.skipWhitespace();
		}
		while (this.in.consumeComma());
		this.in.expect('}');
	}

	/** Whether the member key just read is this name; read before the member's value, which may hold keys of its own. */
	private boolean keyIs(String asciiName) {
		return (this.decodedKey != null) ? this.decodedKey.equals(asciiName)
				: this.in.bytesEqual(asciiName, this.keyStart, this.keyEnd);
	}


}

package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A validating JSON scanner for one stored line: it checks the whole line against RFC 8259 and picks
 * out the top-level fields an entry is indexed by, plus {@code message.role}, building nothing else.
 * Opening a session is one pass of this per line; a general parser spent most of it on tokens nobody reads.
 * <p>
 * Strings must be valid UTF-8 (RFC 8259 §8.1), nesting at most {@value #MAX_DEPTH} deep and numbers such as
 * {@link JsonNumber} holds, as Jackson requires when the entry is read later, so a line this accepts always parses.
 */
final class LineScanner {

	static final int MAX_DEPTH = 1000;

	private static final int TOP_LEVEL = 1;

	private static final int MESSAGE = 2;

	private static final int NESTED = 3;

	private final byte[] bytes;

	/** Where the line starts in {@link #bytes}: columns in messages count from here. */
	private final int start;

	/** Where the line ends in {@link #bytes} (exclusive, before any newline). */
	private final int end;

	private int pos;

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

	private int keyStart;

	private int keyEnd;

	private @Nullable String decodedKey;

	private LineScanner(byte[] bytes, int start, int end) {
		this.bytes = bytes;
		this.start = start;
		this.end = end;
		this.pos = start;
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
				scanner.hexParentId, scanner.timestamp, scanner.messageStart, scanner.messageEnd, scanner.role);
	}

	private void scanLine() throws MalformedLineException {
		skipWhitespace();
		if (peek() != '{') {
			throw new MalformedLineException("not a JSON object");
		}
		object(1, TOP_LEVEL);
		skipWhitespace();
		if (this.pos != this.end) {
			throw error("trailing content after the JSON object");
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
			value(2);
		}
	}

	private void timestamp() throws MalformedLineException {
		this.timestamp = Timestamps.UNKNOWN;
		if (peek() != '"') {
			value(2);
			return;
		}
		int start = this.pos + 1;
		boolean escaped = string();
		int end = this.pos - 1;
		this.timestamp = escaped ? Timestamps.parseMillis(decode(start, end))
				: Timestamps.parseMillis(this.bytes, start, end - start);
	}

	/**
	 * An id: 8 lowercase hex digits, the form agents write, are read as a number without making a string (see
	 * {@link HexIds}); any other string is kept as text in {@link #textId}, and any other value is no id.
	 *
	 * @return the hex form's value, else {@link HexIds#NOT_HEX}
	 */
	private long idValue() throws MalformedLineException {
		this.textId = null;
		if (peek() != '"') {
			value(2);
			return HexIds.NOT_HEX;
		}
		int valueStart = this.pos + 1;
		boolean escaped = string();
		int valueEnd = this.pos - 1;
		long hex = escaped ? HexIds.NOT_HEX : HexIds.parse(this.bytes, valueStart, valueEnd - valueStart);
		if (hex == HexIds.NOT_HEX) {
			this.textId = escaped ? decode(valueStart, valueEnd)
					: new String(this.bytes, valueStart, valueEnd - valueStart, StandardCharsets.UTF_8);
		}
		return hex;
	}

	/** The {@code message} value: its byte range when it is an object, and its {@code role}. */
	private void message() throws MalformedLineException {
		this.role = null;
		this.messageStart = -1;
		this.messageEnd = -1;
		if (peek() != '{') {
			value(2);
			return;
		}
		int start = this.pos;
		object(2, MESSAGE);
		this.messageStart = start;
		this.messageEnd = this.pos;
	}

	/**
	 * A string value, or {@code null} (after skipping it) when the value is not a string. Values that
	 * are usually one of a few names (entry types, roles) come back as the shared instance, without
	 * allocating.
	 */
	private @Nullable String stringValue(List<String> knownNames) throws MalformedLineException {
		if (peek() != '"') {
			value(2);
			return null;
		}
		int start = this.pos + 1;
		boolean escaped = string();
		int end = this.pos - 1;
		if (!escaped) {
			for (String name : knownNames) {
				if (bytesEqual(name, start, end)) {
					return name;
				}
			}
			return new String(this.bytes, start, end - start, StandardCharsets.UTF_8);
		}
		String value = decode(start, end);
		int index = knownNames.indexOf(value);
		return (index >= 0) ? knownNames.get(index) : value;
	}

	private void value(int depth) throws MalformedLineException {
		switch (peek()) {
			case '{' -> object(depth, NESTED);
			case '[' -> array(depth);
			case '"' -> string();
			case 't' -> literal("true");
			case 'f' -> literal("false");
			case 'n' -> literal("null");
			default -> number();
		}
	}

	/** An object starting at its brace: the line itself, the message, or any other. */
	private void object(int depth, int kind) throws MalformedLineException {
		checkDepth(depth);
		this.pos++;
		skipWhitespace();
		if (peek() == '}') {
			this.pos++;
			return;
		}
		do {
			skipWhitespace();
			this.keyStart = this.pos + 1;
			boolean escaped = string();
			this.keyEnd = this.pos - 1;
			this.decodedKey = escaped ? decode(this.keyStart, this.keyEnd) : null;
			skipWhitespace();
			expect(':');
			skipWhitespace();
			switch (kind) {
				case TOP_LEVEL -> topLevelMember();
				case MESSAGE -> {
					if (keyIs("role")) {
						this.role = stringValue(Roles.NAMES);
					}
					else {
						value(depth + 1);
					}
				}
				default -> value(depth + 1);
			}
			skipWhitespace();
		}
		while (consumeComma());
		expect('}');
	}

	private void array(int depth) throws MalformedLineException {
		checkDepth(depth);
		this.pos++;
		skipWhitespace();
		if (peek() == ']') {
			this.pos++;
			return;
		}
		do {
			skipWhitespace();
			value(depth + 1);
			skipWhitespace();
		}
		while (consumeComma());
		expect(']');
	}

	private void checkDepth(int depth) throws MalformedLineException {
		if (depth > MAX_DEPTH) {
			throw error("nesting deeper than " + MAX_DEPTH);
		}
	}

	/** Skips a string starting at its quote; returns whether it holds escapes. */
	private boolean string() throws MalformedLineException {
		if (peek() != '"') {
			throw error("expected a string");
		}
		byte[] b = this.bytes;
		int end = this.end;
		int p = this.pos + 1;
		boolean escaped = false;
		while (true) {
			// Most of a line is string content, most of that printable ASCII: a tight loop over it first.
			int c;
			while (p < end && (c = b[p]) >= 0x20 && c != '"' && c != '\\') {
				p++;
			}
			if (p >= end) {
				throw error("unterminated string");
			}
			c = b[p];
			if (c == '"') {
				this.pos = p + 1;
				return escaped;
			}
			if (c == '\\') {
				escaped = true;
				p = escape(p + 1);
			}
			else if (c < 0) {
				p = utf8Sequence(p);
			}
			else {
				this.pos = p;
				throw error("control character in a string");
			}
		}
	}

	/** Checks one multi-byte UTF-8 character; returns the position after it. */
	private int utf8Sequence(int p) throws MalformedLineException {
		int lead = this.bytes[p] & 0xff;
		int continuations = (lead >= 0xc2 && lead <= 0xdf) ? 1 : (lead >= 0xe0 && lead <= 0xef) ? 2
				: (lead >= 0xf0 && lead <= 0xf4) ? 3 : -1;
		for (int i = 1; i <= continuations; i++) {
			if (p + i >= this.end || (this.bytes[p + i] & 0xc0) != 0x80) {
				continuations = -1;
				break;
			}
		}
		if (continuations < 0) {
			this.pos = p;
			throw error("invalid UTF-8");
		}
		return p + continuations + 1;
	}

	private int escape(int p) throws MalformedLineException {
		if (p >= this.end) {
			throw error("unterminated string");
		}
		switch (this.bytes[p]) {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
				return p + 1;
			}
			case 'u' -> {
				for (int i = 1; i <= 4; i++) {
					if (p + i >= this.end || Character.digit(this.bytes[p + i], 16) < 0) {
						this.pos = p;
						throw error("invalid \\u escape");
					}
				}
				return p + 5;
			}
			default -> {
				this.pos = p;
				throw error("invalid escape");
			}
		}
	}

	private void number() throws MalformedLineException {
		this.pos = JsonNumber.end(this.bytes, this.pos, this.end, this.start);
	}

	private void literal(String word) throws MalformedLineException {
		for (int i = 0; i < word.length(); i++) {
			if (this.pos + i >= this.end || this.bytes[this.pos + i] != word.charAt(i)) {
				throw error("unexpected character");
			}
		}
		this.pos += word.length();
	}

	private boolean consumeComma() {
		if (peek() == ',') {
			this.pos++;
			return true;
		}
		return false;
	}

	private void expect(char c) throws MalformedLineException {
		if (peek() != c) {
			throw error((this.pos >= this.end) ? "unexpected end of line" : "expected '" + c + "'");
		}
		this.pos++;
	}

	private void skipWhitespace() {
		while (this.pos < this.end) {
			byte c = this.bytes[this.pos];
			if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
				return;
			}
			this.pos++;
		}
	}

	private int peek() {
		return (this.pos < this.end) ? this.bytes[this.pos] : -1;
	}

	/** Whether the member key just read is this name; read before the member's value, which may hold keys of its own. */
	private boolean keyIs(String asciiName) {
		return (this.decodedKey != null) ? this.decodedKey.equals(asciiName)
				: bytesEqual(asciiName, this.keyStart, this.keyEnd);
	}

	private boolean bytesEqual(String asciiName, int start, int end) {
		if (end - start != asciiName.length()) {
			return false;
		}
		for (int i = 0; i < asciiName.length(); i++) {
			if (this.bytes[start + i] != asciiName.charAt(i)) {
				return false;
			}
		}
		return true;
	}

	/** The text of a string with escapes (rare: let the general parser decode it). */
	private String decode(int start, int end) {
		return Json.MAPPER.readValue(this.bytes, start - 1, end - start + 2, String.class);
	}

	private MalformedLineException error(String what) {
		return malformed(what, this.pos - this.start);
	}

	/** @param column where in the line, counted from 0 */
	static MalformedLineException malformed(String what, int column) {
		return new MalformedLineException("not valid JSON: " + what + " at column " + (column + 1));
	}

}

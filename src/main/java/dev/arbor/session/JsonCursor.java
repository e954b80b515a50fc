package dev.arbor.session;

/**
 * A position in one line of JSON held in a larger array, and the checked steps over it: whitespace, punctuation,
 * literals, numbers ({@link JsonNumber}), strings ({@link JsonString}) and whole values skipped. Errors name the
 * column in the line. Not thread-safe: one per line.
 */
final class JsonCursor {

	/** Nesting deeper than this is refused, as Jackson would refuse it when the entry is read later. */
	static final int MAX_DEPTH = 1000;

	final byte[] bytes;

	/** Where the line starts in {@link #bytes}: columns in messages count from here. */
	final int start;

	/** Where the line ends in {@link #bytes} (exclusive, before any newline). */
	final int end;

	int pos;

	JsonCursor(byte[] bytes, int start, int end) {
		this.bytes = bytes;
		this.start = start;
		this.end = end;
		this.pos = start;
	}

	/**
	 * Skips one value of any kind, checking it as Jackson would read it.
	 *
	 * @param depth the value's nesting depth: the line is 1
	 */
	void skipValue(int depth) throws MalformedLineException {
		switch (peek()) {
			case '{' -> skipObject(depth);
			case '[' -> skipArray(depth);
			case '"' -> string();
			case 't' -> literal("true");
			case 'f' -> literal("false");
			case 'n' -> literal("null");
			default -> number();
		}
	}

	private void skipObject(int depth) throws MalformedLineException {
		checkDepth(depth);
		this.pos++;
		skipWhitespace();
		if (peek() == '}') {
			this.pos++;
			return;
		}
		do {
			skipWhitespace();
			string();
			skipWhitespace();
			expect(':');
			skipWhitespace();
			skipValue(depth + 1);
			skipWhitespace();
		}
		while (consumeComma());
		expect('}');
	}

	private void skipArray(int depth) throws MalformedLineException {
		checkDepth(depth);
		this.pos++;
		skipWhitespace();
		if (peek() == ']') {
			this.pos++;
			return;
		}
		do {
			skipWhitespace();
			skipValue(depth + 1);
			skipWhitespace();
		}
		while (consumeComma());
		expect(']');
	}

	void checkDepth(int depth) throws MalformedLineException {
		if (depth > MAX_DEPTH) {
			throw error("nesting deeper than " + MAX_DEPTH);
		}
	}

	/** Skips a string starting at its quote; returns whether it holds escapes. */
	boolean string() throws MalformedLineException {
		if (peek() != '"') {
			throw error("expected a string");
		}
		int after = JsonString.end(this.bytes, this.pos, this.end, this.start);
		this.pos = (after < 0) ? ~after : after;
		return after < 0;
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

	boolean consumeComma() {
		if (peek() == ',') {
			this.pos++;
			return true;
		}
		return false;
	}

	void expect(char c) throws MalformedLineException {
		if (peek() != c) {
			throw error((this.pos >= this.end) ? "unexpected end of line" : "expected '" + c + "'");
		}
		this.pos++;
	}

	void skipWhitespace() {
		while (this.pos < this.end) {
			byte c = this.bytes[this.pos];
			if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
				return;
			}
			this.pos++;
		}
	}

	int peek() {
		return (this.pos < this.end) ? this.bytes[this.pos] : -1;
	}

	boolean bytesEqual(String asciiName, int start, int end) {
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
	String decode(int start, int end) {
		return Json.MAPPER.readValue(this.bytes, start - 1, end - start + 2, String.class);
	}

	MalformedLineException error(String what) {
		return malformed(what, this.pos - this.start);
	}

	/** @param column where in the line, counted from 0 */
	static MalformedLineException malformed(String what, int column) {
		return new MalformedLineException("not valid JSON: " + what + " at column " + (column + 1));
	}

}

package dev.arbor.session;

/**
 * Where a JSON string ends (RFC 8259, section 7), checked as Jackson would read it when the entry is read later: valid
 * escapes, no control characters, and valid UTF-8 (RFC 8259, section 8.1).
 */
final class JsonString {

	private JsonString() {
	}

	/**
	 * @param bytes holds the line
	 * @param quote where the string's opening quote is
	 * @param end where the line ends
	 * @param lineStart where the line starts, for the column of an error
	 * @return the position after the closing quote, or its complement ({@code ~position}) when the string holds
	 * escapes, as {@code Arrays.binarySearch} says where a key would go
	 * @throws MalformedLineException when the string is not one
	 */
	static int end(byte[] bytes, int quote, int end, int lineStart) throws MalformedLineException {
		int p = quote + 1;
		boolean escaped = false;
		while (true) {
			// Most of a line is string content, most of that printable ASCII: a tight loop over it first.
			int c;
			while (p < end && (c = bytes[p]) >= 0x20 && c != '"' && c != '\\') {
				p++;
			}
			if (p >= end) {
				throw JsonCursor.malformed("unterminated string", quote - lineStart);
			}
			c = bytes[p];
			if (c == '"') {
				return escaped ? ~(p + 1) : p + 1;
			}
			if (c == '\\') {
				escaped = true;
				p = escape(bytes, p + 1, end, quote, lineStart);
			}
			else if (c < 0) {
				p = utf8Sequence(bytes, p, end, lineStart);
			}
			else {
				throw JsonCursor.malformed("control character in a string", p - lineStart);
			}
		}
	}

	/** Checks one multi-byte UTF-8 character; returns the position after it. */
	private static int utf8Sequence(byte[] bytes, int p, int end, int lineStart) throws MalformedLineException {
		int lead = bytes[p] & 0xff;
		int continuations = (lead >= 0xc2 && lead <= 0xdf) ? 1 : (lead >= 0xe0 && lead <= 0xef) ? 2
				: (lead >= 0xf0 && lead <= 0xf4) ? 3 : -1;
		for (int i = 1; i <= continuations; i++) {
			if (p + i >= end || (bytes[p + i] & 0xc0) != 0x80) {
				continuations = -1;
				break;
			}
		}
		if (continuations < 0) {
			throw JsonCursor.malformed("invalid UTF-8", p - lineStart);
		}
		return p + continuations + 1;
	}

	/** Checks the escape after a backslash; returns the position after it. */
	private static int escape(byte[] bytes, int p, int end, int quote, int lineStart) throws MalformedLineException {
		if (p >= end) {
			throw JsonCursor.malformed("unterminated string", quote - lineStart);
		}
		switch (bytes[p]) {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
				return p + 1;
			}
			case 'u' -> {
				for (int i = 1; i <= 4; i++) {
					if (p + i >= end || Character.digit(bytes[p + i], 16) < 0) {
						throw JsonCursor.malformed("invalid \\u escape", p - lineStart);
					}
				}
				return p + 5;
			}
			default -> throw JsonCursor.malformed("invalid escape", p - lineStart);
		}
	}

}

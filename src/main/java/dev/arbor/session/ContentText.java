package dev.arbor.session;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * Whether a message's {@code content} holds text that is not blank (docs/SESSION-FORMAT.md#the-selector-rows): a
 * string, or a {@code {type: "text", text: …}} block among others. Read by {@link LineScanner} while it checks the
 * content as it checks every value, so that an assistant message with nothing to read (tool calls only) is known from
 * the load on: reading it again for the first page of a large session's rows took most of that page.
 */
final class ContentText {

	private ContentText() {
	}

	/** Steps over the content value at the cursor, checking it; returns whether it holds text that is not blank. */
	static boolean read(JsonCursor in, int depth) throws MalformedLineException {
		return switch (in.peek()) {
			case '"' -> !isBlankString(in);
			case '[' -> blocks(in, depth);
			default -> {
				in.skipValue(depth);
				yield false;
			}
		};
	}

	private static boolean blocks(JsonCursor in, int depth) throws MalformedLineException {
		in.checkDepth(depth);
		in.pos++;
		in.skipWhitespace();
		if (in.peek() == ']') {
			in.pos++;
			return false;
		}
		boolean hasText = false;
		do {
			in.skipWhitespace();
			if (!hasText && in.peek() == '{') {
				hasText = isTextBlockWithText(in, depth + 1);
			}
			else {
				in.skipValue(depth + 1);
			}
			in.skipWhitespace();
		}
		while (in.consumeComma());
		in.expect(']');
		return hasText;
	}

	/** A block whose {@code type} is {@code text} and whose {@code text} is not blank, its fields in any order. */
	private static boolean isTextBlockWithText(JsonCursor in, int depth) throws MalformedLineException {
		in.checkDepth(depth);
		in.pos++;
		in.skipWhitespace();
		if (in.peek() == '}') {
			in.pos++;
			return false;
		}
		boolean typeIsText = false;
		boolean hasText = false;
		do {
			in.skipWhitespace();
			int keyStart = in.pos + 1;
			boolean escaped = in.string();
			int keyEnd = in.pos - 1;
			@Nullable String key = escaped ? in.decode(keyStart, keyEnd) : null;
			in.skipWhitespace();
			in.expect(':');
			in.skipWhitespace();
			boolean string = in.peek() == '"';
			if (string && is(in, "type", keyStart, keyEnd, key)) {
				int start = in.pos + 1;
				boolean valueEscaped = in.string();
				int end = in.pos - 1;
				typeIsText = valueEscaped ? "text".equals(in.decode(start, end)) : in.bytesEqual("text", start, end);
			}
			else if (string && is(in, "text", keyStart, keyEnd, key)) {
				hasText = !isBlankString(in);
			}
			else {
				in.skipValue(depth + 1);
			}
			in.skipWhitespace();
		}
		while (in.consumeComma());
		in.expect('}');
		return typeIsText && hasText;
	}

	private static boolean is(JsonCursor in, String name, int keyStart, int keyEnd, @Nullable String decodedKey) {
		return (decodedKey != null) ? decodedKey.equals(name) : in.bytesEqual(name, keyStart, keyEnd);
	}

	/**
	 * Steps over the string at the cursor; returns whether it is blank as JavaScript's {@code trim} says (upstream's test). Unescaped
	 * ASCII can be blank only as spaces (a JSON string holds no raw control characters); anything else is decoded.
	 */
	private static boolean isBlankString(JsonCursor in) throws MalformedLineException {
		int start = in.pos + 1;
		boolean escaped = in.string();
		int end = in.pos - 1;
		if (escaped) {
			return PiText.isBlank(in.decode(start, end));
		}
		for (int i = start; i < end; i++) {
			byte b = in.bytes[i];
			if (b < 0) {
				return PiText.isBlank(new String(in.bytes, i, end - i, StandardCharsets.UTF_8));
			}
			if (b != ' ') {
				return false;
			}
		}
		return true;
	}

}

package dev.arbor.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Whether an assistant message has nothing to read (docs/SESSION-FORMAT.md §10): no text that is not blank (tool
 * calls only, say) and a {@code stopReason} other than {@code error} or {@code aborted}. Such messages are hidden by
 * every filter unless they are the leaf. Read for every assistant message when a session's rows are first asked
 * for, so it stops at the first text block with something in it, which is usually the first block, and builds no
 * string but the stop reason.
 */
final class SilentAssistant {

	private SilentAssistant() {
	}

	static boolean test(byte[] json, int offset, int length) {
		String stopReason = null;
		try (JsonParser parser = Json.MAPPER.createParser(json, offset, length)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return true;
			}
			String name;
			while ((name = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				if ("content".equals(name) && hasText(parser, value)) {
					return false;
				}
				if ("stopReason".equals(name) && value == JsonToken.VALUE_STRING) {
					stopReason = parser.getString();
				}
				else {
					parser.skipChildren();
				}
			}
		}
		catch (JacksonException ex) {
			// The line was validated on load; a failure here decides on what was read before it.
		}
		return !"error".equals(stopReason) && !"aborted".equals(stopReason);
	}

	/** Whether the content holds text that is not blank; leaves the parser after the content either way. */
	private static boolean hasText(JsonParser parser, JsonToken value) {
		if (value == JsonToken.VALUE_STRING) {
			return !parser.getString().isBlank();
		}
		if (value != JsonToken.START_ARRAY) {
			parser.skipChildren();
			return false;
		}
		JsonToken element;
		while ((element = parser.nextToken()) != JsonToken.END_ARRAY && element != null) {
			if (element == JsonToken.START_OBJECT) {
				if (isTextBlockWithText(parser)) {
					return true;
				}
			}
			else {
				parser.skipChildren();
			}
		}
		return false;
	}

	/** A {@code {type: "text", text: …}} block whose text is not blank, its fields in any order. */
	private static boolean isTextBlockWithText(JsonParser parser) {
		@Nullable String type = null;
		boolean hasText = false;
		String field;
		while ((field = parser.nextName()) != null) {
			JsonToken value = parser.nextToken();
			if ("type".equals(field) && value == JsonToken.VALUE_STRING) {
				type = parser.getString();
			}
			else if ("text".equals(field) && value == JsonToken.VALUE_STRING) {
				hasText = !parser.getString().isBlank();
			}
			else {
				parser.skipChildren();
			}
		}
		return hasText && "text".equals(type);
	}

}

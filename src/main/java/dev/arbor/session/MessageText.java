package dev.arbor.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * What the selector reads from an agent message (docs/SESSION-FORMAT.md#the-selector-rows), with a streaming parser and
 * no tree: text past the first {@value #LIMIT} characters, thinking and tool calls are skipped
 * unread, so a large tool result costs a scan rather than a copy.
 *
 * @param role {@code message.role}
 * @param text the string content, or the text blocks one after the other, cut after {@value #LIMIT} characters:
 * upstream's {@code extractContent}, which joins blocks with nothing between them
 * @param hasVisibleText whether any text block, not only the first characters, holds non-blank text
 * @param stopReason {@code message.stopReason} (assistant messages)
 * @param errorMessage {@code message.errorMessage} (assistant messages)
 * @param toolName {@code message.toolName} (tool results)
 * @param toolCallId {@code message.toolCallId} (tool results)
 * @param command {@code message.command} (bash executions)
 */
record MessageText(@Nullable String role, String text, boolean hasVisibleText, @Nullable String stopReason,
		@Nullable String errorMessage, @Nullable String toolName, @Nullable String toolCallId, @Nullable String command) {

	static final int LIMIT = 200;

	/** An entry whose {@code message} is not an object: nothing to read. */
	static final MessageText NONE = new MessageText(null, "", false, null, null, null, null, null);

	static MessageText scan(byte[] json, int offset, int length) {
		Scanner scanner = new Scanner();
		try (JsonParser parser = Json.MAPPER.createParser(json, offset, length)) {
			if (parser.nextToken() == JsonToken.START_OBJECT) {
				scanner.readMessage(parser);
			}
		}
		catch (JacksonException ex) {
			// The line was validated on load; a failure here keeps what was read before it.
		}
		return scanner.result();
	}

	/** The first {@code limit} characters, never splitting a surrogate pair. */
	static String cut(String text, int limit) {
		if (text.length() <= limit) {
			return text;
		}
		if (limit <= 0) {
			return "";
		}
		int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
		return text.substring(0, end);
	}

	/** Collects the fields while the parser walks the message once. */
	private static final class Scanner {

		private @Nullable String role;

		private final StringBuilder text = new StringBuilder();

		private boolean hasVisibleText;

		private @Nullable String stopReason;

		private @Nullable String errorMessage;

		private @Nullable String toolName;

		private @Nullable String toolCallId;

		private @Nullable String command;

		void readMessage(JsonParser parser) {
			String name;
			while ((name = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				switch (name) {
					case "role" -> this.role = string(parser, value);
					case "stopReason" -> this.stopReason = string(parser, value);
					case "errorMessage" -> this.errorMessage = string(parser, value);
					case "toolName" -> this.toolName = string(parser, value);
					case "toolCallId" -> this.toolCallId = string(parser, value);
					case "command" -> this.command = string(parser, value);
					case "content" -> readContent(parser, value);
					default -> parser.skipChildren();
				}
			}
		}

		private void readContent(JsonParser parser, JsonToken value) {
			if (value == JsonToken.VALUE_STRING) {
				addText(parser.getString());
			}
			else if (value == JsonToken.START_ARRAY) {
				JsonToken element;
				while ((element = parser.nextToken()) != JsonToken.END_ARRAY && element != null) {
					if (element == JsonToken.START_OBJECT) {
						readBlock(parser);
					}
					else {
						parser.skipChildren();
					}
				}
			}
			else {
				parser.skipChildren();
			}
		}

		private void readBlock(JsonParser parser) {
			String type = null;
			String blockText = null;
			String field;
			while ((field = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				switch (field) {
					case "type" -> type = string(parser, value);
					case "text" -> {
						// Once the preview is full and visibility known, further text is skipped undecoded.
						if (value == JsonToken.VALUE_STRING && wantsText()) {
							blockText = parser.getString();
						}
						else {
							parser.skipChildren();
						}
					}
					default -> parser.skipChildren();
				}
			}
			if ("text".equals(type) && blockText != null) {
				addText(blockText);
			}
		}

		private boolean wantsText() {
			return this.text.length() < LIMIT || !this.hasVisibleText;
		}

		private void addText(String blockText) {
			this.hasVisibleText |= !PiText.isBlank(blockText);
			if (this.text.length() >= LIMIT) {
				return;
			}
			this.text.append(cut(blockText, LIMIT - this.text.length()));
		}

		private static @Nullable String string(JsonParser parser, JsonToken value) {
			if (value == JsonToken.VALUE_STRING) {
				return parser.getString();
			}
			parser.skipChildren();
			return null;
		}

		MessageText result() {
			return new MessageText(this.role, cut(this.text.toString(), LIMIT), this.hasVisibleText, this.stopReason,
					this.errorMessage, this.toolName, this.toolCallId, this.command);
		}

	}

}

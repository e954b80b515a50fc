package dev.arbor.summary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Upstream's {@code serializeConversation}, one message at a time: {@code [User]: …}, {@code [Assistant]: …},
 * {@code [Assistant thinking]: …}, {@code [Assistant tool calls]: read(path="…")} and {@code [Tool result]: …}.
 */
final class Transcript {

	/** Tool results are cut to this many characters: what they returned matters less than that they ran. */
	static final int TOOL_RESULT_MAX_CHARS = 2000;

	private static final String CLOSING_TAG = "</conversation>";

	private Transcript() {
	}

	/**
	 * One message of the model view as transcript text; empty when it holds no text.
	 *
	 * @param message a model-view message: {@code user}, {@code assistant} or {@code toolResult}
	 */
	static String render(JsonNode message) {
		String text = switch (message.path("role").asString("")) {
			case "user" -> labelled("[User]: ", joinedText(message.get("content")));
			case "assistant" -> assistant(message.get("content"));
			case "toolResult" -> labelled("[Tool result]: ",
					truncate(joinedText(message.get("content")), TOOL_RESULT_MAX_CHARS));
			default -> "";
		};
		// The transcript sits inside <conversation> tags; a conversation quoting the closing tag must not end it.
		return text.replace(CLOSING_TAG, "<\\/conversation>");
	}

	/** Characters / 4, rounded up, as upstream estimates. */
	static int estimateTokens(String text) {
		return (text.length() + 3) / 4;
	}

	/** The first {@code maxChars} characters and a note of how many more there were, as upstream cuts. */
	static String truncate(String text, int maxChars) {
		if (text.length() <= maxChars) {
			return text;
		}
		int end = Character.isHighSurrogate(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
		return text.substring(0, end) + "\n\n[... " + (text.length() - end) + " more characters truncated]";
	}

	private static String assistant(JsonNode content) {
		List<String> texts = new ArrayList<>();
		List<String> thinking = new ArrayList<>();
		List<String> toolCalls = new ArrayList<>();
		if (content != null && content.isArray()) {
			for (JsonNode block : content) {
				switch (block.path("type").asString("")) {
					case "text" -> texts.add(block.path("text").asString(""));
					case "thinking" -> thinking.add(block.path("thinking").asString(""));
					case "toolCall" -> toolCalls.add(toolCall(block));
					default -> {
					}
				}
			}
		}
		else if (content != null && content.isString()) {
			texts.add(content.asString());
		}
		List<String> parts = new ArrayList<>(3);
		if (!thinking.isEmpty()) {
			parts.add("[Assistant thinking]: " + String.join("\n", thinking));
		}
		if (!texts.isEmpty()) {
			parts.add("[Assistant]: " + String.join("\n", texts));
		}
		if (!toolCalls.isEmpty()) {
			parts.add("[Assistant tool calls]: " + String.join("; ", toolCalls));
		}
		return String.join("\n\n", parts);
	}

	/** {@code name(key=<JSON value>, …)}, each value as {@code JSON.stringify} writes it. */
	private static String toolCall(JsonNode block) {
		List<String> arguments = new ArrayList<>();
		JsonNode args = block.get("arguments");
		if (args != null && args.isObject()) {
			for (Map.Entry<String, JsonNode> argument : args.properties()) {
				arguments.add(argument.getKey() + "=" + JsonStringify.of(argument.getValue()));
			}
		}
		return block.path("name").asString("") + "(" + String.join(", ", arguments) + ")";
	}

	/** A string content as is, or its text blocks joined without a separator, as upstream joins them. */
	private static String joinedText(JsonNode content) {
		if (content == null) {
			return "";
		}
		if (content.isString()) {
			return content.asString();
		}
		List<String> texts = new ArrayList<>();
		for (JsonNode block : content) {
			if ("text".equals(block.path("type").asString(""))) {
				texts.add(block.path("text").asString(""));
			}
		}
		return String.join("", texts);
	}

	private static String labelled(String label, String text) {
		return text.isEmpty() ? "" : label + text;
	}

}

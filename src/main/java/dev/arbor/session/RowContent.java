package dev.arbor.session;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one row of the selector says and what its search looks at (docs/SESSION-FORMAT.md#the-selector-rows), written
 * as upstream's tree selector writes them: {@code TreeList.getEntryDisplayText} for the text,
 * {@code TreeList.getSearchableText} for the search, both in pi-coding-agent's
 * {@code modes/interactive/components/tree-selector.js}. Messages are read with a streaming scan, the small other
 * entries from their tree.
 */
final class RowContent {

	/** How much of an assistant's error message the row shows. */
	private static final int ERROR_LIMIT = 80;

	private RowContent() {
	}

	/**
	 * The row's text, without the label and the active-path mark drawn before it.
	 *
	 * @param callOf for a tool result's {@code toolCallId}, the call it answers ({@link ToolCallText#callOf}), if found
	 */
	static String text(EntryLine entry, Function<String, @Nullable JsonNode> callOf) {
		return switch (entry.type()) {
			case EntryTypes.MESSAGE -> message(entry.messageText(), callOf);
			case EntryTypes.CUSTOM_MESSAGE -> {
				ObjectNode node = entry.toNode();
				JsonNode content = node.get("content");
				String text = (content != null && content.isString()) ? content.asString() : textBlocks(content, false);
				yield "[" + PiText.string(node.get("customType")) + "]: " + PiText.normalize(text);
			}
			case EntryTypes.COMPACTION -> {
				JsonNode tokens = entry.toNode().get("tokensBefore");
				double thousands = (tokens != null && tokens.isNumber()) ? Math.floor(tokens.asDouble() / 1000 + 0.5)
						: Double.NaN;
				yield "[compaction: " + PiText.number(thousands) + "k tokens]";
			}
			case EntryTypes.BRANCH_SUMMARY -> "[branch summary]: " + PiText.normalize(summary(entry.toNode()));
			case EntryTypes.MODEL_CHANGE -> "[model: " + PiText.string(model(entry.toNode())) + "]";
			case EntryTypes.THINKING_LEVEL_CHANGE ->
				"[thinking: " + PiText.string(entry.toNode().get("thinkingLevel")) + "]";
			case EntryTypes.CUSTOM -> "[custom: " + PiText.string(entry.toNode().get("customType")) + "]";
			case EntryTypes.LABEL -> {
				JsonNode label = entry.toNode().get("label");
				yield "[label: " + ((label == null || label.isNull()) ? "(cleared)" : PiText.string(label)) + "]";
			}
			case EntryTypes.SESSION_INFO -> {
				JsonNode name = entry.toNode().get("name");
				yield "[title: " + (PiText.truthy(name) ? PiText.string(name) : "empty") + "]";
			}
			// Upstream writes nothing for a type it does not know, oh-my-pi's own among them.
			default -> "";
		};
	}

	/** The text the search looks at, without the label, which the view puts before it. */
	static String searchable(EntryLine entry) {
		return switch (entry.type()) {
			case EntryTypes.MESSAGE -> {
				MessageText message = entry.messageText();
				String searchable = (message.role() != null) ? message.role() : "";
				searchable += " " + message.text();
				if ("bashExecution".equals(message.role()) && message.command() != null && !message.command().isEmpty()) {
					searchable += " " + message.command();
				}
				yield searchable;
			}
			case EntryTypes.CUSTOM_MESSAGE -> {
				ObjectNode node = entry.toNode();
				JsonNode content = node.get("content");
				yield PiText.part(node.get("customType")) + " "
						+ ((content != null && content.isString()) ? content.asString() : textBlocks(content, true));
			}
			case EntryTypes.COMPACTION -> "compaction";
			case EntryTypes.BRANCH_SUMMARY -> "branch summary " + summary(entry.toNode());
			case EntryTypes.SESSION_INFO -> {
				JsonNode name = entry.toNode().get("name");
				yield PiText.truthy(name) ? "title " + PiText.string(name) : "title";
			}
			case EntryTypes.MODEL_CHANGE -> "model " + PiText.part(model(entry.toNode()));
			case EntryTypes.THINKING_LEVEL_CHANGE -> "thinking " + PiText.part(entry.toNode().get("thinkingLevel"));
			case EntryTypes.CUSTOM -> "custom " + PiText.part(entry.toNode().get("customType"));
			case EntryTypes.LABEL -> "label " + PiText.part(entry.toNode().get("label"));
			default -> "";
		};
	}

	/** A message's row: {@code user: …}, {@code assistant: …}, the call a tool result answers, a bash command. */
	private static String message(MessageText message, Function<String, @Nullable JsonNode> callOf) {
		String role = message.role();
		if (role == null) {
			return "[undefined]";
		}
		return switch (role) {
			case "user" -> "user: " + PiText.normalize(message.text());
			case "assistant" -> "assistant: " + assistant(message);
			case "toolResult" -> {
				JsonNode toolCall = (message.toolCallId() != null) ? callOf.apply(message.toolCallId()) : null;
				if (toolCall != null) {
					yield ToolCallText.of(PiText.string(toolCall.get("name")), toolCall.get("arguments"));
				}
				yield "[" + ((message.toolName() != null) ? message.toolName() : "tool") + "]";
			}
			case "bashExecution" -> "[bash]: " + PiText.normalize((message.command() != null) ? message.command() : "");
			default -> "[" + role + "]";
		};
	}

	private static String assistant(MessageText message) {
		String text = PiText.normalize(message.text());
		if (!text.isEmpty()) {
			return text;
		}
		if ("aborted".equals(message.stopReason())) {
			return "(aborted)";
		}
		if (message.errorMessage() != null && !message.errorMessage().isEmpty()) {
			return MessageText.cut(PiText.normalize(message.errorMessage()), ERROR_LIMIT);
		}
		return "(no content)";
	}

	/** The model upstream names: {@code modelId}; oh-my-pi's entries have {@code model} instead, which it names. */
	private static @Nullable JsonNode model(ObjectNode entry) {
		JsonNode modelId = entry.get("modelId");
		return (modelId == null && entry.has("model")) ? entry.get("model") : modelId;
	}

	private static String summary(ObjectNode entry) {
		JsonNode summary = entry.get("summary");
		return (summary != null && summary.isString()) ? summary.asString() : "";
	}

	/**
	 * The text blocks of a content array one after the other; {@code cut} as upstream's {@code extractContent} (the
	 * search), else all of them (the row of a custom message).
	 */
	private static String textBlocks(@Nullable JsonNode content, boolean cut) {
		StringBuilder text = new StringBuilder();
		if (content != null && content.isArray()) {
			for (JsonNode block : content) {
				JsonNode blockText = block.get("text");
				if ("text".equals(Json.text(block, "type")) && blockText != null && blockText.isString()) {
					text.append(blockText.asString());
					if (cut && text.length() >= MessageText.LIMIT) {
						return MessageText.cut(text.toString(), MessageText.LIMIT);
					}
				}
			}
		}
		return text.toString();
	}

}

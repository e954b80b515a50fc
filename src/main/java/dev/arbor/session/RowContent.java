package dev.arbor.session;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one row of the selector shows and what its search looks at (docs/SESSION-FORMAT.md#the-selector-rows), read from
 * its entry: messages with a streaming scan, the small other entries from their tree. Immutable.
 *
 * @param role {@code message.role} for a message, else {@code null}
 * @param text the preview: one line (newlines and tabs become spaces), at most
 * {@value MessageText#LIMIT} characters
 * @param searchable the searchable text docs/SESSION-FORMAT.md#the-selector-rows lists for the entry's type, without
 * the label
 */
record RowContent(@Nullable String role, String text, String searchable) {

	static RowContent of(EntryLine entry) {
		return switch (entry.type()) {
			case EntryTypes.MESSAGE -> message(entry.messageText());
			case EntryTypes.CUSTOM_MESSAGE -> customMessage(entry.toNode());
			case EntryTypes.COMPACTION -> {
				String summary = Json.text(entry.toNode(), "summary");
				yield other(keyed("compaction", summary), "compaction");
			}
			case EntryTypes.BRANCH_SUMMARY -> {
				String summary = Json.text(entry.toNode(), "summary");
				yield other(keyed("branch summary", summary), join("branch summary", summary));
			}
			case EntryTypes.MODEL_CHANGE -> modelChange(entry.toNode());
			case EntryTypes.THINKING_LEVEL_CHANGE -> {
				// docs/SESSION-FORMAT.md#the-model-context: a null level means "off".
				String level = Json.text(entry.toNode(), "thinkingLevel");
				yield other(keyed("thinking", (level != null) ? level : "off"), join("thinking", level));
			}
			case EntryTypes.CUSTOM -> {
				String customType = Json.text(entry.toNode(), "customType");
				yield other(keyed("custom", customType), join("custom", customType));
			}
			case EntryTypes.LABEL -> {
				String label = Json.text(entry.toNode(), "label");
				boolean cleared = label == null || label.isEmpty();
				yield other(keyed("label", cleared ? "(cleared)" : label), join("label", label));
			}
			case EntryTypes.MODE_CHANGE -> {
				String mode = Json.text(entry.toNode(), "mode");
				yield other(keyed("mode", mode), join("mode", mode));
			}
			case EntryTypes.TTSR_INJECTION -> {
				List<String> rules = strings(entry.toNode().get("injectedRules"));
				yield other(keyed("ttsr", String.join(", ", rules)), "");
			}
			// docs/SESSION-FORMAT.md#the-selector-rows gives the remaining types no searchable text but their label.
			default -> other(entry.type(), "");
		};
	}

	private static RowContent message(MessageText message) {
		String role = message.role();
		String text = oneLine(message.text());
		String preview;
		if ("bashExecution".equals(role) && message.command() != null) {
			preview = oneLine(message.command());
		}
		else if (!text.isEmpty()) {
			boolean named = "toolResult".equals(role) && message.toolName() != null;
			preview = named ? message.toolName() + ": " + text : text;
		}
		else if ("aborted".equals(message.stopReason())) {
			preview = "(aborted)";
		}
		else if (message.errorMessage() != null && !message.errorMessage().isBlank()) {
			preview = oneLine(message.errorMessage());
		}
		else if (!message.toolCalls().isEmpty()) {
			preview = "(tool calls: " + String.join(", ", message.toolCalls()) + ")";
		}
		else {
			preview = "(no content)";
		}
		String searchable = join(role, message.text());
		if ("bashExecution".equals(role)) {
			searchable = join(searchable, message.command());
		}
		return new RowContent(role, MessageText.cut(preview, MessageText.LIMIT), searchable);
	}

	private static RowContent customMessage(ObjectNode entry) {
		String customType = Json.text(entry, "customType");
		JsonNode content = entry.get("content");
		String text = (content != null && content.isString()) ? content.asString()
				: String.join("\n", textBlocks(content));
		text = MessageText.cut(text, MessageText.LIMIT);
		return other(keyed(customType, text), join(customType, text));
	}

	private static RowContent modelChange(ObjectNode entry) {
		String model = Json.text(entry, "model");
		if (model == null && Json.text(entry, "provider") != null && Json.text(entry, "modelId") != null) {
			// The legacy form (docs/SESSION-FORMAT.md#entry-types).
			model = Json.text(entry, "provider") + "/" + Json.text(entry, "modelId");
		}
		String role = Json.text(entry, "role");
		String key = (role != null && !"default".equals(role)) ? "model (" + role + ")" : "model";
		return other(keyed(key, model), join("model", model));
	}

	private static RowContent other(String text, String searchable) {
		return new RowContent(null, MessageText.cut(oneLine(text), MessageText.LIMIT), searchable);
	}

	/** {@code key: value}, or the key alone when there is no value. */
	private static String keyed(@Nullable String key, @Nullable String value) {
		if (value == null || value.isBlank()) {
			return (key != null) ? key : "";
		}
		return (key != null) ? key + ": " + value : value;
	}

	private static String join(@Nullable String first, @Nullable String second) {
		if (first == null) {
			return (second != null) ? second : "";
		}
		return (second != null) ? first + " " + second : first;
	}

	/** The string elements of an array. */
	private static List<String> strings(@Nullable JsonNode array) {
		List<String> strings = new ArrayList<>();
		if (array != null && array.isArray()) {
			for (JsonNode element : array) {
				if (element.isString()) {
					strings.add(element.asString());
				}
			}
		}
		return strings;
	}

	/** The {@code text} of each text block of a content array. */
	private static List<String> textBlocks(@Nullable JsonNode content) {
		List<String> texts = new ArrayList<>();
		if (content != null && content.isArray()) {
			for (JsonNode block : content) {
				String text = Json.text(block, "text");
				if ("text".equals(Json.text(block, "type")) && text != null) {
					texts.add(text);
				}
			}
		}
		return texts;
	}

	/** Newlines and tabs become spaces, so a preview is one line. */
	private static String oneLine(String text) {
		return text.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ').trim();
	}

}

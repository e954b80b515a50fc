package dev.arbor.session;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The context as a model receives it (docs/SESSION-FORMAT.md#the-llm-view): summaries, custom and bash messages
 * become user messages; user, assistant and tool results pass unchanged; other roles are dropped.
 * Texts are the upstream agents' own, so a model sees the same prompt from Arbor as from them.
 */
final class ModelView {

	static final String COMPACTION_SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";

	static final String COMPACTION_SUMMARY_SUFFIX = "\n</summary>";

	static final String BRANCH_SUMMARY_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";

	static final String BRANCH_SUMMARY_SUFFIX = "</summary>";

	private ModelView() {
	}

	static List<ContextMessage> convert(List<ContextMessage> messages) {
		List<ContextMessage> converted = new ArrayList<>(messages.size());
		for (ContextMessage message : messages) {
			ContextMessage forModel = convert(message);
			if (forModel != null) {
				converted.add(forModel);
			}
		}
		return converted;
	}

	static @Nullable ContextMessage convert(ContextMessage message) {
		if (message instanceof ContextMessage.Stored stored) {
			return convertStored(stored);
		}
		if (message instanceof ContextMessage.Custom custom) {
			return new ContextMessage.User(contentBlocks(custom.fields().get("content")), epochMillis(custom.timestamp()));
		}
		if (message instanceof ContextMessage.BranchSummary summary) {
			return text(BRANCH_SUMMARY_PREFIX + summary.summary() + BRANCH_SUMMARY_SUFFIX, epochMillis(summary.timestamp()));
		}
		if (message instanceof ContextMessage.CompactionSummary summary) {
			return text(COMPACTION_SUMMARY_PREFIX + summary.summary() + COMPACTION_SUMMARY_SUFFIX,
					epochMillis(summary.timestamp()));
		}
		return message;
	}

	private static @Nullable ContextMessage convertStored(ContextMessage.Stored stored) {
		switch (stored.role()) {
			case "user", "assistant", "toolResult" -> {
				return stored;
			}
			case "custom", "hookMessage" -> {
				ObjectNode message = stored.entry().messageNode();
				return new ContextMessage.User(contentBlocks(message.get("content")), message.get("timestamp"));
			}
			case "bashExecution" -> {
				ObjectNode message = stored.entry().messageNode();
				JsonNode excluded = message.get("excludeFromContext");
				if (excluded != null && excluded.asBoolean()) {
					return null;
				}
				return text(bashExecutionText(message), message.get("timestamp"));
			}
			default -> {
				return null;
			}
		}
	}

	/** Upstream's {@code bashExecutionToText}. */
	static String bashExecutionText(ObjectNode message) {
		StringBuilder text = new StringBuilder("Ran `").append(Json.text(message, "command")).append("`\n");
		String output = Json.text(message, "output");
		if (output != null && !output.isEmpty()) {
			text.append("```\n").append(output).append("\n```");
		}
		else {
			text.append("(no output)");
		}
		JsonNode exitCode = Json.value(message, "exitCode");
		if (isTrue(message, "cancelled")) {
			text.append("\n\n(command cancelled)");
		}
		else if (exitCode != null && exitCode.isNumber() && exitCode.numberValue().doubleValue() != 0) {
			text.append("\n\nCommand exited with code ").append(exitCode.toString());
		}
		String fullOutputPath = Json.text(message, "fullOutputPath");
		if (isTrue(message, "truncated") && fullOutputPath != null && !fullOutputPath.isEmpty()) {
			text.append("\n\n[Output truncated. Full output: ").append(fullOutputPath).append("]");
		}
		return text.toString();
	}

	private static boolean isTrue(ObjectNode node, String field) {
		JsonNode value = node.get(field);
		return value != null && value.asBoolean();
	}

	private static ContextMessage.User text(String text, @Nullable JsonNode timestamp) {
		ArrayNode content = JsonNodeFactory.instance.arrayNode();
		content.addObject().put("type", "text").put("text", text);
		return new ContextMessage.User(content, timestamp);
	}

	/** A string becomes one text block; an array is kept as is. */
	private static ArrayNode contentBlocks(@Nullable JsonNode content) {
		if (content instanceof ArrayNode array) {
			return array;
		}
		ArrayNode blocks = JsonNodeFactory.instance.arrayNode();
		blocks.addObject().put("type", "text").put("text", (content != null && content.isString()) ? content.asString() : "");
		return blocks;
	}

	private static @Nullable JsonNode epochMillis(long timestamp) {
		return (timestamp != Timestamps.UNKNOWN) ? JsonNodeFactory.instance.numberNode(timestamp) : null;
	}

}

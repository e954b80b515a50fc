package dev.arbor.summary;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the entries of an abandoned branch for the summary tests: each one a stored line, as a session file
 * holds it. Parents and timestamps do not matter to a summary, so every entry is a root at the same instant.
 */
final class BranchEntries {

	static final String TIMESTAMP = "2025-01-01T00:00:00.000Z";

	/** Upstream's {@code BRANCH_SUMMARY_PREFIX} (pi-coding-agent {@code core/messages.js}). */
	static final String BRANCH_SUMMARY_LEAD_IN = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";

	/** Upstream's {@code COMPACTION_SUMMARY_PREFIX}. */
	static final String COMPACTION_LEAD_IN = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";

	private BranchEntries() {
	}

	/** Any entry: the base fields, then the given field name/value pairs in order. */
	static EntryLine entry(String type, String id, Object... fields) {
		ObjectNode node = obj("type", type, "id", id, "parentId", null, "timestamp", TIMESTAMP);
		node.setAll(obj(fields));
		return EntryLine.of(node);
	}

	/** A {@code message} entry holding the given message. */
	static EntryLine message(String id, ObjectNode message) {
		return entry("message", id, "message", message);
	}

	static EntryLine user(String id, String text) {
		return message(id, obj("role", "user", "content", arr(text(text)), "timestamp", 1735689600000L));
	}

	static EntryLine assistant(String id, JsonNode... blocks) {
		return message(id, obj("role", "assistant", "content", arr((Object[]) blocks), "provider", "anthropic",
				"model", "claude-sonnet-4-5", "stopReason", "toolUse", "timestamp", 1735689600000L));
	}

	static EntryLine toolResult(String id, String text) {
		return message(id, obj("role", "toolResult", "toolCallId", "call-" + id, "toolName", "read", "content",
				arr(text(text)), "isError", false, "timestamp", 1735689600000L));
	}

	static EntryLine branchSummary(String id, String summary, Object... fields) {
		EntryLine entry = entry("branch_summary", id, "fromId", "root", "summary", summary);
		ObjectNode node = entry.toNode();
		node.setAll(obj(fields));
		return EntryLine.of(node);
	}

	static EntryLine compaction(String id, String summary) {
		return entry("compaction", id, "summary", summary, "firstKeptEntryId", "00000000", "tokensBefore", 5000);
	}

	static ObjectNode text(String text) {
		return obj("type", "text", "text", text);
	}

	static ObjectNode thinking(String thinking) {
		return obj("type", "thinking", "thinking", thinking);
	}

	static ObjectNode toolCall(String name, ObjectNode arguments) {
		return obj("type", "toolCall", "id", "call-" + name, "name", name, "arguments", arguments);
	}

	/** A read, write or edit call on one path, with the other arguments those tools take. */
	static ObjectNode fileCall(String name, Object path) {
		return switch (name) {
			case "write" -> toolCall(name, obj("path", path, "content", "x"));
			case "edit" -> toolCall(name, obj("path", path, "oldText", "a", "newText", "b"));
			default -> toolCall(name, obj("path", path));
		};
	}

	/** An ordered JSON object from name/value pairs; values are nodes, strings, numbers, booleans or null. */
	static ObjectNode obj(Object... keyValues) {
		ObjectNode node = JsonNodeFactory.instance.objectNode();
		for (int i = 0; i < keyValues.length; i += 2) {
			node.set((String) keyValues[i], node(keyValues[i + 1]));
		}
		return node;
	}

	static ArrayNode arr(Object... values) {
		ArrayNode array = JsonNodeFactory.instance.arrayNode();
		for (Object value : values) {
			array.add(node(value));
		}
		return array;
	}

	private static JsonNode node(@Nullable Object value) {
		if (value == null) {
			return JsonNodeFactory.instance.nullNode();
		}
		if (value instanceof JsonNode json) {
			return json;
		}
		return Json.MAPPER.valueToTree(value);
	}

}

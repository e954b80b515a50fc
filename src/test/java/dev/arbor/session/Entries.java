package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds entries and trees for the engine's tests: each entry is a stored line, as a session file
 * would hold it. Timestamps are whole seconds after {@link #T0}, so tests read {@code at(3)}.
 */
final class Entries {

	static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

	static final String SESSION_ID = "0193f9a0-0000-7000-8000-000000000001";

	static final String CWD = "/work/project";

	private Entries() {
	}

	/** A tree over the entries in file order, with the leaf on the last one (docs/SESSION-FORMAT.md#the-leaf). */
	static SessionTree tree(EntryLine... entries) {
		return SessionTree.of(header(), null, List.of(entries));
	}

	static SessionHeader header() {
		return SessionHeader.create(SESSION_ID, T0, CWD, null, null);
	}

	/** The stored timestamp {@code seconds} after {@link #T0}. */
	static String at(int seconds) {
		return Timestamps.format(T0.plusSeconds(seconds));
	}

	/** Epoch milliseconds of {@link #at(int)}. */
	static long millisAt(int seconds) {
		return T0.plusSeconds(seconds).toEpochMilli();
	}

	/** One stored line, exactly as given. */
	static EntryLine line(String json) {
		return EntryLine.of(json.getBytes(StandardCharsets.UTF_8));
	}

	/** A JSON object written with single quotes for readability: {@code json("{'type':'custom'}")}. */
	static ObjectNode json(String singleQuoted) {
		return Json.parseObject(singleQuoted.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
	}

	/** A list of drafts, each written as {@link #json(String)}. */
	static List<ObjectNode> drafts(String... singleQuoted) {
		List<ObjectNode> drafts = new ArrayList<>();
		for (String draft : singleQuoted) {
			drafts.add(json(draft));
		}
		return drafts;
	}

	/** Any entry: the base fields, then the given field name/value pairs in order. */
	static EntryLine entry(String type, String id, @Nullable String parentId, String timestamp, Object... fields) {
		ObjectNode node = obj("type", type, "id", id, "parentId", parentId, "timestamp", timestamp);
		node.setAll(obj(fields));
		return EntryLine.of(node);
	}

	static EntryLine message(String id, @Nullable String parentId, String timestamp, String role, String text) {
		return entry(EntryTypes.MESSAGE, id, parentId, timestamp, "message",
				obj("role", role, "content", arr(textBlock(text)), "timestamp", Timestamps.parseMillis(timestamp)));
	}

	static EntryLine user(String id, @Nullable String parentId, String timestamp, String text) {
		return message(id, parentId, timestamp, "user", text);
	}

	static EntryLine assistant(String id, @Nullable String parentId, String timestamp, String provider, String model,
			String text) {
		return entry(EntryTypes.MESSAGE, id, parentId, timestamp, "message",
				obj("role", "assistant", "content", arr(textBlock(text)), "provider", provider, "model", model,
						"stopReason", "stop", "timestamp", Timestamps.parseMillis(timestamp)));
	}

	static EntryLine thinking(String id, @Nullable String parentId, String timestamp, @Nullable String level) {
		return entry(EntryTypes.THINKING_LEVEL_CHANGE, id, parentId, timestamp, "thinkingLevel", level);
	}

	static EntryLine modelChange(String id, @Nullable String parentId, String timestamp, String model) {
		return entry(EntryTypes.MODEL_CHANGE, id, parentId, timestamp, "model", model);
	}

	static EntryLine label(String id, @Nullable String parentId, String timestamp, String targetId,
			@Nullable String label) {
		return (label != null) ? entry(EntryTypes.LABEL, id, parentId, timestamp, "targetId", targetId, "label", label)
				: entry(EntryTypes.LABEL, id, parentId, timestamp, "targetId", targetId);
	}

	static EntryLine compaction(String id, @Nullable String parentId, String timestamp, String summary,
			String firstKeptEntryId, int tokensBefore) {
		return entry(EntryTypes.COMPACTION, id, parentId, timestamp, "summary", summary, "firstKeptEntryId",
				firstKeptEntryId, "tokensBefore", tokensBefore);
	}

	static EntryLine branchSummary(String id, @Nullable String parentId, String timestamp, String fromId,
			String summary) {
		return entry(EntryTypes.BRANCH_SUMMARY, id, parentId, timestamp, "fromId", fromId, "summary", summary);
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

	static ObjectNode textBlock(String text) {
		return obj("type", "text", "text", text);
	}

	static List<String> ids(List<EntryLine> entries) {
		List<String> ids = new ArrayList<>();
		for (EntryLine entry : entries) {
			ids.add(entry.id());
		}
		return ids;
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

package dev.arbor.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns drafts into entries chained from the leaf, checking each against docs/SESSION-FORMAT.md#entry-types as if
 * the earlier drafts of the batch were already appended. Changes nothing: the tree adds the lines
 * once storage has made them durable. One planner per request.
 */
final class AppendPlanner {

	private static final List<String> ASSIGNED_FIELDS = List.of("id", "parentId", "timestamp");

	private final SessionTree tree;

	private final String timestamp;

	private final Set<String> newIds = new HashSet<>();

	private final @Nullable KeyedAppend keyed;

	private @Nullable String leaf;

	private @Nullable Set<String> pathIds;

	/** @param keyed where the ids come from under an idempotency key; random ids when {@code null} */
	AppendPlanner(SessionTree tree, Instant now, @Nullable KeyedAppend keyed) {
		this.tree = tree;
		this.timestamp = Timestamps.format(now);
		this.leaf = tree.leafId();
		this.keyed = keyed;
	}

	List<EntryLine> plan(List<ObjectNode> drafts) {
		if (drafts.isEmpty()) {
			throw new InvalidEntryException(null, "No entries to append");
		}
		List<EntryLine> lines = new ArrayList<>(drafts.size());
		for (int i = 0; i < drafts.size(); i++) {
			try {
				lines.add(planOne(drafts.get(i)));
			}
			catch (InvalidEntryException ex) {
				throw (drafts.size() > 1) ? ex.inBatch(i) : ex;
			}
		}
		return lines;
	}

	EntryLine branchSummary(@Nullable String fromId, String summary, @Nullable JsonNode details,
			@Nullable Boolean fromExtension) {
		ObjectNode fields = Json.newObject();
		fields.put("fromId", (fromId != null) ? fromId : "root");
		fields.put("summary", summary);
		if (details != null) {
			fields.set("details", details);
		}
		if (fromExtension != null) {
			fields.put("fromExtension", fromExtension);
		}
		this.leaf = fromId;
		return line(EntryTypes.BRANCH_SUMMARY, fields);
	}

	private EntryLine planOne(ObjectNode draft) {
		JsonNode typeNode = draft.get("type");
		if (typeNode == null || !typeNode.isString()) {
			throw new InvalidEntryException("type", "type must be a string");
		}
		for (String field : ASSIGNED_FIELDS) {
			if (draft.has(field)) {
				throw new InvalidEntryException(field, field + " is assigned by Arbor and must not be sent");
			}
		}
		String type = typeNode.asString();
		validate(type, draft);
		ObjectNode fields = draft.deepCopy();
		fields.remove("type");
		return line(type, fields);
	}

	private void validate(String type, ObjectNode draft) {
		switch (type) {
			case EntryTypes.MESSAGE -> {
				JsonNode message = draft.get("message");
				if (message == null || !message.isObject()) {
					throw new InvalidEntryException("message", "message must be an object");
				}
				MessageShapes.check(message);
			}
			case EntryTypes.THINKING_LEVEL_CHANGE -> {
				JsonNode level = draft.get("thinkingLevel");
				if (level == null || !(level.isString() || level.isNull())) {
					throw new InvalidEntryException("thinkingLevel", "thinkingLevel must be a string or null");
				}
			}
			case EntryTypes.MODEL_CHANGE -> validateModelChange(draft);
			case EntryTypes.MODE_CHANGE -> requireString(draft, "mode", "mode");
			case EntryTypes.TTSR_INJECTION -> requireStringArray(draft, "injectedRules");
			case EntryTypes.COMPACTION -> validateCompaction(draft);
			case EntryTypes.BRANCH_SUMMARY -> throw new InvalidEntryException("type",
					"type branch_summary cannot be appended: branch summaries are written by navigation or the branch-summary operation");
			case EntryTypes.CUSTOM -> {
				String customType = Json.text(draft, "customType");
				if (customType == null || customType.isEmpty()) {
					throw new InvalidEntryException("customType", "customType must be a non-empty string");
				}
			}
			case EntryTypes.CUSTOM_MESSAGE -> validateCustomMessage(draft);
			case EntryTypes.LABEL -> validateLabel(draft);
			case EntryTypes.SESSION_INFO -> {
				// pi's listing reads a name that is not a string as no file at all (docs/SESSION-FORMAT.md#how-a-session-is-listed)
				JsonNode name = draft.get("name");
				if (name != null && !(name.isString() || name.isNull())) {
					throw new InvalidEntryException("name", "name must be a string");
				}
			}
			default -> {
				if (!EntryTypes.AGENT_STATE.contains(type)) {
					throw new InvalidEntryException("type", "Unknown entry type: " + type);
				}
			}
		}
	}

	private void validateModelChange(ObjectNode draft) {
		JsonNode model = draft.get("model");
		if (model != null) {
			requireString(draft, "model", "model");
		}
		else if (Json.text(draft, "provider") == null || Json.text(draft, "modelId") == null) {
			throw new InvalidEntryException("model", "model must be a string (or provider and modelId strings)");
		}
		if (draft.has("role") && !draft.get("role").isString()) {
			throw new InvalidEntryException("role", "role must be a string");
		}
	}

	private void validateCompaction(ObjectNode draft) {
		requireString(draft, "summary", "summary");
		String firstKept = requireString(draft, "firstKeptEntryId", "firstKeptEntryId");
		if (draft.has("tokensBefore") && !draft.get("tokensBefore").isNumber()) {
			throw new InvalidEntryException("tokensBefore", "tokensBefore must be a number");
		}
		if (!pathIds().contains(firstKept)) {
			throw new InvalidEntryException("firstKeptEntryId",
					"firstKeptEntryId " + firstKept + " is not on the current path");
		}
	}

	private void validateCustomMessage(ObjectNode draft) {
		JsonNode content = draft.get("content");
		if (content == null || !(content.isString() || content.isArray())) {
			throw new InvalidEntryException("content", "content must be a string or an array");
		}
		if (draft.has("customType") && !draft.get("customType").isString()) {
			throw new InvalidEntryException("customType", "customType must be a string");
		}
		if (draft.has("display") && !draft.get("display").isBoolean()) {
			throw new InvalidEntryException("display", "display must be a boolean");
		}
	}

	private void validateLabel(ObjectNode draft) {
		String targetId = requireString(draft, "targetId", "targetId");
		JsonNode label = draft.get("label");
		if (label != null && !(label.isString() || label.isNull())) {
			throw new InvalidEntryException("label", "label must be a string");
		}
		if (!this.tree.contains(targetId) && !this.newIds.contains(targetId)) {
			throw new EntryNotFoundException(targetId);
		}
	}

	private Set<String> pathIds() {
		if (this.pathIds == null) {
			this.pathIds = new HashSet<>();
			for (EntryLine entry : this.tree.getPath(this.tree.leafId())) {
				this.pathIds.add(entry.id());
			}
			this.pathIds.addAll(this.newIds);
		}
		return this.pathIds;
	}

	private EntryLine line(String type, ObjectNode fields) {
		Predicate<String> taken = candidate -> this.tree.contains(candidate) || this.newIds.contains(candidate);
		// each draft adds one id: their count is this draft's place in the batch
		String id = (this.keyed != null) ? this.keyed.newId(this.newIds.size(), taken) : EntryIds.newId(taken);
		ObjectNode entry = Json.newObject();
		entry.put("type", type);
		entry.put("id", id);
		entry.put("parentId", this.leaf);
		entry.put("timestamp", this.timestamp);
		for (Map.Entry<String, JsonNode> field : fields.properties()) {
			entry.set(field.getKey(), field.getValue());
		}
		EntryLine line = EntryLine.of(entry);
		this.newIds.add(id);
		if (this.pathIds != null) {
			this.pathIds.add(id);
		}
		this.leaf = id;
		return line;
	}

	private static String requireString(JsonNode node, String field, String path) {
		String value = Json.text(node, field);
		if (value == null) {
			throw new InvalidEntryException(path, path + " must be a string");
		}
		return value;
	}

	private static void requireStringArray(JsonNode node, String field) {
		JsonNode value = node.get(field);
		boolean valid = value != null && value.isArray();
		if (valid) {
			for (JsonNode element : value) {
				valid &= element.isString();
			}
		}
		if (!valid) {
			throw new InvalidEntryException(field, field + " must be an array of strings");
		}
	}

}

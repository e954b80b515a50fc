package dev.arbor.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One message of a built context (docs/SESSION-FORMAT.md#the-model-context). Messages of {@code message} entries stay
 * the stored bytes; the others are made from their entry. Timestamps are epoch milliseconds.
 */
public sealed interface ContextMessage {

	/** The message's {@code role}. */
	String role();

	/** The message as compact JSON. */
	String toJson();

	/** A {@code message} entry's message, exactly as stored. */
	record Stored(EntryLine entry) implements ContextMessage {

		@Override
		public String role() {
			String role = this.entry.messageRole();
			return (role != null) ? role : "";
		}

		@Override
		public String toJson() {
			return this.entry.messageJson();
		}

	}

	/** {@code {role:"compactionSummary", summary, tokensBefore, timestamp}}. */
	record CompactionSummary(String summary, @Nullable JsonNode tokensBefore, long timestamp)
			implements ContextMessage {

		@Override
		public String role() {
			return "compactionSummary";
		}

		@Override
		public String toJson() {
			ObjectNode node = Json.newObject().put("role", role()).put("summary", this.summary);
			if (this.tokensBefore != null) {
				node.set("tokensBefore", this.tokensBefore); // as JSON.stringify upstream, an absent one stays absent
			}
			return Json.toString(putTimestamp(node, this.timestamp));
		}

	}

	/** {@code {role:"branchSummary", summary, fromId, timestamp}}. */
	record BranchSummary(String summary, @Nullable String fromId, long timestamp) implements ContextMessage {

		@Override
		public String role() {
			return "branchSummary";
		}

		@Override
		public String toJson() {
			ObjectNode node = Json.newObject().put("role", role()).put("summary", this.summary).put("fromId", this.fromId);
			return Json.toString(putTimestamp(node, this.timestamp));
		}

	}

	/** A {@code custom_message} entry: {@code {role:"custom", customType, content, display, details, timestamp}}. */
	record Custom(ObjectNode fields, long timestamp) implements ContextMessage {

		@Override
		public String role() {
			return "custom";
		}

		@Override
		public String toJson() {
			ObjectNode node = Json.newObject().put("role", role());
			for (String field : new String[] { "customType", "content", "display", "details" }) {
				if (this.fields.has(field)) {
					node.set(field, this.fields.get(field));
				}
			}
			return Json.toString(putTimestamp(node, this.timestamp));
		}

	}

	/**
	 * What a model receives in place of a message it does not know (docs/SESSION-FORMAT.md#the-llm-view):
	 * {@code {role:"user", content, timestamp}}.
	 */
	record User(ArrayNode content, @Nullable JsonNode timestamp) implements ContextMessage {

		@Override
		public String role() {
			return "user";
		}

		@Override
		public String toJson() {
			ObjectNode node = Json.newObject().put("role", role());
			node.set("content", this.content);
			node.set("timestamp", this.timestamp);
			return Json.toString(node);
		}

	}

	private static ObjectNode putTimestamp(ObjectNode node, long timestamp) {
		// An unreadable timestamp is NaN upstream, which JSON.stringify writes as null.
		return (timestamp != Timestamps.UNKNOWN) ? node.put("timestamp", timestamp) : node.putNull("timestamp");
	}

}

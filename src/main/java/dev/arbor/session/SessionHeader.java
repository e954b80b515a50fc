package dev.arbor.session;

import java.time.Instant;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The first record of a session file (SESSION-TREE.md §2.1), kept whole so unknown fields survive.
 *
 * @param id the session id
 * @param version the format version; a header without one is version 1
 * @param json the stored header line
 */
public record SessionHeader(String id, int version, StoredLine json) {

	/** The version Arbor writes. */
	public static final int CURRENT_VERSION = 3;

	/** Reads a header record; {@code null} when the record is not a header with a string id. */
	public static @Nullable SessionHeader parse(ObjectNode record) {
		if (!EntryTypes.SESSION.equals(Json.text(record, "type")) || Json.text(record, "id") == null) {
			return null;
		}
		JsonNode version = record.get("version");
		int number = (version != null && version.isIntegralNumber()) ? version.asInt() : 1;
		return new SessionHeader(Json.text(record, "id"), number, new StoredLine(Json.toBytes(record)));
	}

	/** A new version-3 header: {@code {type, version, id, timestamp, cwd, title?, parentSession?}}. */
	public static SessionHeader create(String id, Instant now, @Nullable String cwd, @Nullable String title,
			@Nullable String parentSession) {
		ObjectNode header = Json.newObject();
		header.put("type", EntryTypes.SESSION);
		header.put("version", CURRENT_VERSION);
		header.put("id", id);
		header.put("timestamp", Timestamps.format(now));
		header.put("cwd", (cwd != null) ? cwd : "");
		if (title != null) {
			header.put("title", title);
		}
		if (parentSession != null) {
			header.put("parentSession", parentSession);
		}
		return parse(header);
	}

	/** The whole header as a fresh, mutable tree. */
	public ObjectNode toNode() {
		return Json.parseObject(this.json.bytes());
	}

	public @Nullable String cwd() {
		return Json.text(toNode(), "cwd");
	}

	public @Nullable String title() {
		return Json.text(toNode(), "title");
	}

	public @Nullable String parentSession() {
		return Json.text(toNode(), "parentSession");
	}

	public @Nullable String timestamp() {
		return Json.text(toNode(), "timestamp");
	}

	/** This header at the current version, other fields untouched (migration, SESSION-TREE.md §3). */
	public SessionHeader atCurrentVersion() {
		if (this.version == CURRENT_VERSION) {
			return this;
		}
		ObjectNode node = toNode();
		node.put("version", CURRENT_VERSION);
		return parse(node);
	}

}

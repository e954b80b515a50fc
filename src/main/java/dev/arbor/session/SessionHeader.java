package dev.arbor.session;

import java.time.Instant;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The first record of a session file (docs/SESSION-FORMAT.md#a-file-line-by-line), kept whole so unknown fields
 * survive.
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
		return new SessionHeader(Json.text(record, "id"), version(record.get("version")), new StoredLine(Json.toBytes(record)));
	}

	/**
	 * The version as upstream compares it: {@code version ?? 1}, then {@code < 2} and {@code < 3} with JavaScript's
	 * coercion. So {@code 3.0} and {@code "3"} are version 3, {@code 2.5} is 2, a boolean is 1, and a value that is
	 * no number ({@code "x"}, an object) compares false both times and is migrated by neither step.
	 */
	private static int version(@Nullable JsonNode version) {
		if (version == null || version.isNull()) {
			return 1;
		}
		double number = number(version);
		if (Double.isNaN(number)) {
			return CURRENT_VERSION;
		}
		if (number < 2) {
			return 1;
		}
		return (number < 3) ? 2 : (int) Math.min(number, Integer.MAX_VALUE);
	}

	private static double number(JsonNode version) {
		if (version.isNumber()) {
			return version.numberValue().doubleValue(); // asDouble() throws beyond a double's range
		}
		if (version.isBoolean()) {
			return version.asBoolean() ? 1 : 0;
		}
		if (version.isString()) {
			String text = version.asString().strip();
			try {
				return text.isEmpty() ? 0 : Double.parseDouble(text);
			}
			catch (NumberFormatException ex) {
				return Double.NaN;
			}
		}
		return Double.NaN;
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

	/** This header under another session id, other fields untouched (an import under a fresh id). */
	public SessionHeader withId(String newId) {
		ObjectNode node = toNode();
		node.put("id", newId);
		return parse(node);
	}

	/**
	 * This header at the current version, other fields untouched (migration,
	 * docs/SESSION-FORMAT.md#versions-and-migrations).
	 */
	public SessionHeader atCurrentVersion() {
		if (this.version == CURRENT_VERSION) {
			return this;
		}
		ObjectNode node = toNode();
		node.put("version", CURRENT_VERSION);
		return parse(node);
	}

}

package dev.arbor.storage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.arbor.session.EntryIds;
import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryScan;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The format migrations of docs/SESSION-FORMAT.md#versions-and-migrations, run on load in memory; the file is rewritten
 * as version 3 only when the session is next written.
 */
final class Migrations {

	private Migrations() {
	}

	/**
	 * Brings the records after the header to version 3.
	 *
	 * @param sessionId the session id, the seed of migrated ids
	 * @param version the header's version
	 * @param records the records after the header, in file order, malformed lines left out
	 */
	static List<EntryLine> toCurrentVersion(String sessionId, int version, List<EntryScan> records) {
		List<ObjectNode> nodes = new ArrayList<>(records.size());
		for (EntryScan record : records) {
			nodes.add(Json.parseObject(record.json()));
		}
		if (version < 2) {
			v1ToV2(sessionId, nodes);
		}
		v2ToV3(nodes);
		List<EntryLine> lines = new ArrayList<>(nodes.size());
		for (ObjectNode node : nodes) {
			lines.add(EntryLine.of(node));
		}
		return lines;
	}

	/**
	 * v1 → v2: one linear chain in file order. <b>Arbor:</b> ids derive from the session id and the
	 * record's position, so clients holding them keep them across reloads (upstream draws random ids on
	 * every load until the file is rewritten).
	 */
	private static void v1ToV2(String sessionId, List<ObjectNode> records) {
		Set<String> taken = new HashSet<>();
		List<String> ids = new ArrayList<>(records.size());
		for (int i = 0; i < records.size(); i++) {
			// Positions count records with the header at 0, as firstKeptEntryIndex does.
			ids.add(deterministicId(sessionId, i + 1, taken));
		}
		String previous = null;
		for (int i = 0; i < records.size(); i++) {
			ObjectNode record = records.get(i);
			record.put("id", ids.get(i));
			record.put("parentId", previous);
			previous = ids.get(i);
			if (EntryTypes.COMPACTION.equals(Json.text(record, "type")) && record.has("firstKeptEntryIndex")) {
				JsonNode index = record.get("firstKeptEntryIndex");
				if (index.isNumber()) {
					String target = targetOf(index, ids);
					if (target != null) {
						record.put("firstKeptEntryId", target);
					}
					record.remove("firstKeptEntryIndex");
				}
			}
		}
	}

	/** The id of the record at a header-relative index; the header itself or out of range gives none. */
	private static @Nullable String targetOf(JsonNode index, List<String> ids) {
		if (!index.canConvertToInt() || index.asDouble() != Math.rint(index.asDouble())) {
			return null;
		}
		int position = index.asInt();
		return (position >= 1 && position <= ids.size()) ? ids.get(position - 1) : null;
	}

	/** v2 → v3: the {@code hookMessage} role became {@code custom}. */
	private static void v2ToV3(List<ObjectNode> records) {
		for (ObjectNode record : records) {
			if (EntryTypes.MESSAGE.equals(Json.text(record, "type")) && record.get("message") instanceof ObjectNode message
					&& "hookMessage".equals(Json.text(message, "role"))) {
				message.put("role", "custom");
			}
		}
	}

	/** First 8 hex digits of SHA-256(sessionId, position[, attempt]); collisions retried with the next attempt. */
	static String deterministicId(String sessionId, int position, Set<String> taken) {
		for (int attempt = 0;; attempt++) {
			String seed = sessionId + '\u0000' + position + ((attempt > 0) ? "\u0000" + attempt : "");
			byte[] hash = sha256(seed.getBytes(StandardCharsets.UTF_8));
			int value = ((hash[0] & 0xff) << 24) | ((hash[1] & 0xff) << 16) | ((hash[2] & 0xff) << 8) | (hash[3] & 0xff);
			String id = EntryIds.hex8(value);
			if (taken.add(id)) {
				return id;
			}
		}
	}

	private static byte[] sha256(byte[] input) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(input);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

}

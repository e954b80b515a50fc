package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The entry ids of an append made under a client's idempotency key (docs/API.md#idempotent-appends): derived from the
 * session, the key and the draft's place in the batch instead of drawn at random, so that a retry finds what an
 * earlier attempt stored by looking in the session itself, after a restart or on another replica too, with nothing
 * written into the file that an agent would not write (the ids keep the 8 hex digits of
 * docs/SESSION-FORMAT.md#a-file-line-by-line).
 * <p>
 * Each draft has a short sequence of candidate ids; the append takes the first one not in the session. The candidates
 * before the one it took were taken already, and stay so, so a later search that walks them in order meets the
 * earlier append's entry before any free id. An entry counts as that append's only when its fields, less those
 * Arbor assigns, are the draft's. Immutable.
 */
public final class KeyedAppend {

	/**
	 * Candidates per draft: with ids of 32 bits, one is taken by chance once in billions of appends to a session of a
	 * few thousand entries; past the last, an id is drawn at random and only the caller's memory of the key finds it.
	 */
	static final int CANDIDATES = 8;

	private static final List<String> ASSIGNED_FIELDS = List.of("id", "parentId", "timestamp");

	private final String seed;

	private KeyedAppend(String seed) {
		this.seed = seed;
	}

	/** The ids of appends to this session under this key. */
	public static KeyedAppend of(String sessionId, String key) {
		return new KeyedAppend(sessionId + '\n' + key);
	}

	/**
	 * The entries an earlier append of these drafts under this key stored, found in the tree, or empty when none did:
	 * then nothing of it is in the session.
	 */
	public Optional<List<EntryLine>> find(SessionTree tree, List<ObjectNode> drafts) {
		List<EntryLine> found = new ArrayList<>(drafts.size());
		@Nullable String parentId = null;
		for (int index = 0; index < drafts.size(); index++) {
			EntryLine entry = findOne(tree, index, drafts.get(index));
			if (entry == null || (index > 0 && !Objects.equals(entry.parentId(), parentId))) {
				return Optional.empty();
			}
			found.add(entry);
			parentId = entry.id();
		}
		return Optional.of(found);
	}

	/** The id for the draft at {@code index} of the batch: its first candidate not taken, else a random one. */
	String newId(int index, Predicate<String> taken) {
		for (int attempt = 0; attempt < CANDIDATES; attempt++) {
			String id = candidate(index, attempt);
			if (!taken.test(id)) {
				return id;
			}
		}
		return EntryIds.newId(taken);
	}

	private @Nullable EntryLine findOne(SessionTree tree, int index, ObjectNode draft) {
		JsonNode expected = null;
		for (int attempt = 0; attempt < CANDIDATES; attempt++) {
			Optional<EntryLine> entry = tree.getEntry(candidate(index, attempt));
			if (entry.isEmpty()) {
				return null; // the earlier append would have taken this one
			}
			if (expected == null) {
				// read back as the stored line is, so that numbers compare as the same kind of node
				expected = Json.parseObject(Json.toBytes(draft));
			}
			ObjectNode stored = entry.get().toNode();
			for (String field : ASSIGNED_FIELDS) {
				stored.remove(field);
			}
			if (stored.equals(expected)) {
				return entry.get();
			}
		}
		return null;
	}

	String candidate(int index, int attempt) {
		MessageDigest sha256;
		try {
			sha256 = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
		byte[] hash = sha256.digest((this.seed + '\n' + index + '\n' + attempt).getBytes(StandardCharsets.UTF_8));
		int value = ((hash[0] & 0xff) << 24) | ((hash[1] & 0xff) << 16) | ((hash[2] & 0xff) << 8) | (hash[3] & 0xff);
		return EntryIds.hex8(value);
	}

}

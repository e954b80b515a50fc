package dev.arbor.operations;

import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import dev.arbor.session.ListingFacts;
import dev.arbor.storage.AppendKeys;
import dev.arbor.storage.Appended;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writing one session: appends, leaf moves, branch summaries and labels (docs/SESSION-FORMAT.md#entry-types and
 * docs/SESSION-FORMAT.md#the-leaf). Each is durable when it returns, conditional on the leaf the caller saw, and
 * changes nothing when it fails. They wait while a navigation of the session runs ({@link SessionGates}).
 */
@Service
public class TreeWrites {

	private final SessionStore store;

	private final SessionGates gates;

	private final AppendKeys keys;

	public TreeWrites(SessionStore store, SessionGates gates, AppendKeys keys) {
		this.store = store;
		this.gates = gates;
		this.keys = keys;
	}

	/**
	 * Appends drafts after the leaf, all or nothing; the leaf is then the last one. Under an idempotency key, a retry
	 * answers what the first attempt stored (docs/API.md#idempotent-appends).
	 */
	public Appended append(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts,
			@Nullable IdempotencyKey key) {
		return this.gates.shared(sessionId, () -> this.keys.append(sessionId, expected, drafts, key));
	}

	/** {@code branch(entryId)}, or {@code resetLeaf()} for {@code null}; returns the new leaf. */
	public @Nullable String moveLeaf(String sessionId, ExpectedLeaf expected, @Nullable String entryId) {
		return this.gates.shared(sessionId, () -> this.store.moveLeaf(sessionId, expected, entryId));
	}

	/** {@code branchWithSummary}: the summary entry, now the leaf. */
	public EntryLine appendBranchSummary(String sessionId, ExpectedLeaf expected, @Nullable String fromId,
			String summary, @Nullable JsonNode details, @Nullable Boolean fromExtension) {
		return this.gates.shared(sessionId,
				() -> this.store.appendBranchSummary(sessionId, expected, fromId, summary, details, fromExtension));
	}

	/**
	 * Names the session as pi's {@code /name} does: a {@code session_info} entry with the name trimmed, appended
	 * after the leaf, which it becomes; an empty name clears the name (docs/SESSION-FORMAT.md#how-a-session-is-listed).
	 *
	 * @param key the client's idempotency key, or {@code null}; the entry's draft is the body a retry must match
	 * @return the {@code session_info} entry, and whether it was stored by an earlier request under the key
	 */
	public Appended setName(String sessionId, ExpectedLeaf expected, String name, @Nullable IdempotencyKey key) {
		ObjectNode draft = Json.newObject().put("type", EntryTypes.SESSION_INFO).put("name", ListingFacts.trimmedName(name));
		return append(sessionId, expected, List.of(draft), key);
	}

	/**
	 * Appends a {@code label} entry for the target (a label is an ordinary entry: it becomes the leaf,
	 * docs/SESSION-FORMAT.md#the-leaf).
	 *
	 * @param label the label; {@code null} or blank clears it, written as upstream does, without a {@code label}
	 * field
	 * @param key the client's idempotency key, or {@code null}; the label entry's draft is the body a retry must match
	 * @return the label entry, and whether it was stored by an earlier request under the key
	 */
	public Appended setLabel(String sessionId, ExpectedLeaf expected, String targetId, @Nullable String label,
			@Nullable IdempotencyKey key) {
		ObjectNode draft = Json.newObject().put("type", EntryTypes.LABEL).put("targetId", targetId);
		if (label != null && !label.isBlank()) {
			draft.put("label", label);
		}
		return append(sessionId, expected, List.of(draft), key);
	}

}

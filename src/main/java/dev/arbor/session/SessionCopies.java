package dev.arbor.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * New sessions made from an existing one (docs/SESSION-FORMAT.md#branching-and-forking). The source is never modified;
 * the new header names it in {@code parentSession} by session id (Arbor's clients know sessions by id, and a file path
 * would leak the server's layout).
 */
public final class SessionCopies {

	private SessionCopies() {
	}

	/**
	 * {@code createBranchedSession(leafId)}: the path root → leafId without its {@code label} entries,
	 * then one fresh {@code label} entry per resolved label on that path, chained after the last copied
	 * entry. The new leaf is the last entry.
	 * <p>
	 * <b>Arbor:</b> an entry whose parent was a dropped label is re-linked to the nearest copied
	 * ancestor, so the copy stays one chain (upstream leaves such an entry orphaned, cutting the path).
	 */
	public static NewSession createBranchedSession(SessionTree tree, String leafId, String newSessionId,
			Instant now) {
		List<EntryLine> path = tree.getPath(leafId);
		if (path.isEmpty()) {
			throw new EntryNotFoundException(leafId);
		}
		List<EntryLine> copied = new ArrayList<>(path.size());
		Set<String> ids = new HashSet<>();
		String lastCopied = null;
		boolean parentDropped = false;
		for (EntryLine entry : path) {
			if (entry.isType(EntryTypes.LABEL)) {
				parentDropped = true;
				continue;
			}
			copied.add(parentDropped ? withParent(entry, lastCopied) : entry);
			ids.add(entry.id());
			lastCopied = entry.id();
			parentDropped = false;
		}
		String parent = lastCopied;
		for (Map.Entry<String, Labels.Label> label : tree.resolvedLabels().entrySet()) {
			if (ids.contains(label.getKey())) {
				String id = EntryIds.newId(candidate -> ids.contains(candidate));
				ids.add(id);
				copied.add(labelEntry(id, parent, label.getKey(), label.getValue(), now));
				parent = id;
			}
		}
		SessionHeader header = SessionHeader.create(newSessionId, now, tree.header().cwd(), null, tree.sessionId());
		return new NewSession(header, copied, copied.isEmpty() ? null : copied.get(copied.size() - 1).id());
	}

	/** Fork: every entry of every branch copied as stored, labels and leaf unchanged, under a new header. */
	public static NewSession fork(SessionTree tree, String newSessionId, Instant now) {
		SessionHeader header = SessionHeader.create(newSessionId, now, tree.header().cwd(), tree.title(),
				tree.sessionId());
		return new NewSession(header, tree.getEntries(), tree.leafId());
	}

	private static EntryLine withParent(EntryLine entry, @Nullable String parentId) {
		ObjectNode node = entry.toNode();
		node.put("parentId", parentId);
		return EntryLine.of(node);
	}

	private static EntryLine labelEntry(String id, @Nullable String parentId, String targetId, Labels.Label label,
			Instant now) {
		ObjectNode node = Json.newObject();
		node.put("type", EntryTypes.LABEL);
		node.put("id", id);
		node.put("parentId", parentId);
		// Upstream keeps the time the label was set; the id is what makes the entry fresh.
		node.put("timestamp", (label.timestamp() != null) ? label.timestamp() : Timestamps.format(now));
		node.put("targetId", targetId);
		node.put("label", label.label());
		return EntryLine.of(node);
	}

}

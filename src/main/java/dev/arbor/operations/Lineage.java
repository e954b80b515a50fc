package dev.arbor.operations;

import java.util.List;
import java.util.Map;

import dev.arbor.storage.SessionInfo;
import org.jspecify.annotations.Nullable;

/**
 * Where a session sits among the sessions forked and branched from one another (docs/API.md#fork-lineage), by the
 * header's {@code parentSession}.
 *
 * @param ancestors its parent, the parent's parent and so on, nearest first
 * @param missingParent the {@code parentSession} at which the walk up stopped because it names no stored session:
 * of the session itself when {@code ancestors} is empty, else of the last ancestor; {@code null} when the walk
 * reached a session without a parent (or a cycle)
 * @param cycle the id of the session the walk up reached a second time (a cycle in the headers, written by hand):
 * the walk stops there instead of going round; {@code null} when there is none
 * @param descendants the sessions whose parent is this one, theirs, and so on, breadth first: the children of one
 * session oldest first (by the header's timestamp, then id); a session is listed once, even in a cycle
 * @param parents each descendant's id to the id of the session its {@code parentSession} names
 */
public record Lineage(List<SessionInfo> ancestors, @Nullable String missingParent, @Nullable String cycle,
		List<SessionInfo> descendants, Map<String, String> parents) {

	public Lineage {
		ancestors = List.copyOf(ancestors);
		descendants = List.copyOf(descendants);
		parents = Map.copyOf(parents);
	}

}

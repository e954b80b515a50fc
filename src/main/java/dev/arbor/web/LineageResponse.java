package dev.arbor.web;

import java.util.List;
import java.util.Map;

import dev.arbor.operations.Lineage;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A session's fork lineage (docs/API.md#fork-lineage); each session as the listing shows it.
 *
 * @param ancestors the parent, its parent and so on, nearest first
 * @param missingParent the {@code parentSession} that names no stored session, where the walk up stopped
 * @param cycle the id of the session the walk up reached a second time
 * @param descendants forks and branches of the session, of those, and so on, breadth first
 * @param parents each descendant's id to its parent's id
 */
@Schema(name = "Lineage", description = "Where a session sits among the sessions forked and branched from one another, by the headers' `parentSession`.")
record LineageResponse(
		@Schema(description = "The session's parent, the parent's parent and so on, nearest first; empty for a session without a parent.") List<SessionResponse> ancestors,
		@Schema(description = "The `parentSession` at which the walk up stopped because it names no stored session (an id of a deleted session, a path outside the storage directory): the session's own when `ancestors` is empty, else the last ancestor's. Null when the walk reached a session without a parent.",
				example = "/home/me/.pi/agent/sessions/--home-me-project--/2025-11-20T23-33-01-550Z_019a9f3e-0000-7000-8000-000000000000.jsonl") @Nullable String missingParent,
		@Schema(description = "The id of a session the walk up reached a second time: headers written by hand that name one another. The walk stops there; null when there is no cycle.",
				example = "019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f") @Nullable String cycle,
		@Schema(description = "The sessions forked or branched from this one, from those, and so on: breadth first, the children of one session oldest first (by `createdAt`, then id). Each session once, even in a cycle.") List<SessionResponse> descendants,
		@Schema(description = "Each descendant's id to the id of its parent (the session its `parentSession` names, an id or a file path), to draw the tree.",
				example = "{\"019a9f3f-1111-7000-8000-000000000000\": \"019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f\"}") Map<String, String> parents) {

	static LineageResponse of(Lineage lineage) {
		return new LineageResponse(lineage.ancestors().stream().map(SessionResponse::of).toList(), lineage.missingParent(),
				lineage.cycle(), lineage.descendants().stream().map(SessionResponse::of).toList(), lineage.parents());
	}

}

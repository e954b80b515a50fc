package dev.arbor.operations;

import dev.arbor.storage.SessionInfo;
import org.jspecify.annotations.Nullable;

/**
 * What {@code /branch} did (docs/SESSION-FORMAT.md#branching-and-forking).
 *
 * @param cancelled whether a hook cancelled it: then no session was made
 * @param selectedText the text of the user message branched at, for the editor
 * @param session the new session, unless cancelled
 * @param previousSessionId the session branched from
 */
public record BranchOutcome(boolean cancelled, String selectedText, @Nullable SessionInfo session,
		String previousSessionId) {
}

package dev.arbor.web;

import dev.arbor.operations.BranchOutcome;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * What {@code /branch} did.
 *
 * @param cancelled whether a hook cancelled it
 * @param selectedText the user message's text, for the editor
 * @param session the new session
 * @param previousSessionId the session branched from
 */
@Schema(description = "The new session made by /branch, and the text of the message branched at.")
record BranchResponse(@Schema(example = "false") boolean cancelled,
		@Schema(description = "The user message's text, to edit and send in the new session.", example = "Make the config loader read env vars") String selectedText,
		@Schema(description = "The new session; null when a hook cancelled.") @Nullable SessionResponse session,
		@Schema(description = "The session branched from.", example = "019a9f3e-0000-7000-8000-000000000000") String previousSessionId) {

	static BranchResponse of(BranchOutcome outcome) {
		return new BranchResponse(outcome.cancelled(), outcome.selectedText(),
				(outcome.session() != null) ? SessionResponse.of(outcome.session()) : null,
				outcome.previousSessionId());
	}

}

package dev.arbor.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.arbor.operations.NavigationOutcome;
import dev.arbor.session.EntryLine;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * What a navigation did (docs/SESSION-FORMAT.md#navigation).
 *
 * @param cancelled whether a hook cancelled it or it was aborted; then nothing changed
 * @param aborted whether it was aborted by its requestId
 * @param oldLeafId the leaf before
 * @param newLeafId the leaf now
 * @param editorText the text of a user or custom message target
 * @param summaryEntry the branch summary written
 * @param fromExtension whether a hook wrote the summary
 * @param context the context at the new leaf
 */
@Schema(description = "What a navigation did: the leaf before and after, the editor text, the summary written and the rebuilt context.")
record NavigateResponse(@Schema(example = "false") boolean cancelled, @Schema(example = "false") boolean aborted,
		@Schema(example = "c3d4e5f6") @Nullable String oldLeafId,
		@Schema(description = "The leaf now: the summary entry when one was written; the old leaf when nothing changed.", example = "a1b2c3d4") @Nullable String newLeafId,
		@Schema(description = "For a user or custom message target: its text, to edit and send again.", example = "Make the config loader read env vars") @Nullable String editorText,
		@Schema(description = "The branch_summary entry written at the new position, as stored.") @Nullable EntryLine summaryEntry,
		@Schema(description = "With a summary entry: whether a hook supplied it.", example = "false") @Nullable Boolean fromExtension,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Schema(description = "The context at the new leaf (agent format); left out with `context=false` and when the navigation was cancelled.") @Nullable ContextResponse context) {

	static NavigateResponse of(NavigationOutcome outcome) {
		return new NavigateResponse(outcome.cancelled(), outcome.aborted(), outcome.oldLeafId(), outcome.newLeafId(),
				outcome.editorText(), outcome.summaryEntry(), outcome.fromExtension(),
				(outcome.context() != null) ? ContextResponse.of(outcome.context()) : null);
	}

}

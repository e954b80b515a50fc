package dev.arbor.operations;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionContext;
import org.jspecify.annotations.Nullable;

/**
 * What a navigation did (docs/SESSION-FORMAT.md#navigation).
 *
 * @param cancelled whether a hook cancelled it or it was aborted: then nothing changed
 * @param aborted whether it was aborted by its {@code requestId}
 * @param oldLeafId the leaf before
 * @param newLeafId the leaf now (the old one when nothing changed)
 * @param editorText the text of a user or custom message target, for the editor
 * @param summaryEntry the {@code branch_summary} written, if any
 * @param fromExtension whether a hook supplied that summary; {@code null} without one
 * @param context the context rebuilt at the new leaf, unless it was not asked for or nothing changed
 */
public record NavigationOutcome(boolean cancelled, boolean aborted, @Nullable String oldLeafId,
		@Nullable String newLeafId, @Nullable String editorText, @Nullable EntryLine summaryEntry,
		@Nullable Boolean fromExtension, @Nullable SessionContext context) {

	static NavigationOutcome cancelled(@Nullable String leafId, boolean aborted) {
		return new NavigationOutcome(true, aborted, leafId, leafId, null, null, null, null);
	}

}

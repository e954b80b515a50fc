package dev.arbor.web;

import java.util.List;

import dev.arbor.session.NavigationPlan;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A dry run: what the navigation would do now.
 *
 * @param targetId the entry navigated to
 * @param oldLeafId the leaf now
 * @param commonAncestorId the deepest entry on both paths
 * @param entryIdsToSummarize the entries left behind, root first
 * @param newLeafId where the leaf would go (the summary entry, if any, is written under it)
 * @param editorText the text of a user or custom message target
 */
@Schema(description = "The preparation of a navigation (dry run): nothing changed.")
record NavigationPreview(@Schema(example = "a1b2c3d4") String targetId,
		@Schema(example = "c3d4e5f6") @Nullable String oldLeafId,
		@Schema(description = "The deepest entry on both the target's and the leaf's path.", example = "a1b2c3d4") @Nullable String commonAncestorId,
		@Schema(description = "The entries left behind, root first: what a summary would cover.", example = "[\"b2c3d4e5\",\"c3d4e5f6\"]") List<String> entryIdsToSummarize,
		@Schema(description = "Where the leaf would go; a summary would be written under it.", example = "a1b2c3d4") @Nullable String newLeafId,
		@Schema(description = "For a user or custom message target: its text.", example = "Make the config loader read env vars") @Nullable String editorText) {

	static NavigationPreview of(NavigationPlan plan) {
		return new NavigationPreview(plan.targetId(), plan.oldLeafId(), plan.commonAncestorId(),
				plan.entryIdsToSummarize(), plan.newLeafId(), plan.editorText());
	}

}

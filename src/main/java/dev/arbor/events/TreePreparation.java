package dev.arbor.events;

import java.util.List;

import dev.arbor.session.EntryLine;
import org.jspecify.annotations.Nullable;

/**
 * The {@code session_before_tree} preparation (docs/SESSION-FORMAT.md §8): what the navigation is about to do.
 *
 * @param sessionId the session
 * @param targetId the entry navigated to
 * @param oldLeafId the leaf before
 * @param commonAncestorId the deepest entry on both paths
 * @param entriesToSummarize the abandoned entries, root first, as stored
 * @param userWantsSummary whether the navigation asked for a summary
 * @param customInstructions the user's instructions for the summary, or {@code null}
 */
public record TreePreparation(String sessionId, String targetId, @Nullable String oldLeafId,
		@Nullable String commonAncestorId, List<EntryLine> entriesToSummarize, boolean userWantsSummary,
		@Nullable String customInstructions) {

	public TreePreparation {
		entriesToSummarize = List.copyOf(entriesToSummarize);
	}

}

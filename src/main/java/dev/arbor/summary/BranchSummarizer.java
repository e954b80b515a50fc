package dev.arbor.summary;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.arbor.session.EntryLine;
import org.jspecify.annotations.Nullable;

/**
 * The summary model of docs/SESSION-FORMAT.md#navigation: writes the summary of a branch the user navigates away from.
 * A bean of this type is what "a summary model is configured" means; without one, summarizing navigations fail at once
 * with upstream's {@code No model available for summarization}.
 */
public interface BranchSummarizer {

	/**
	 * Starts summarizing.
	 *
	 * @param entries the abandoned entries, root first; never empty and holding at least one message
	 * @param customInstructions the user's instructions, or {@code null} for the structured default
	 * @return the summary when done; cancelling it (an aborted navigation) must stop the model call
	 */
	CompletableFuture<BranchSummary> summarize(List<EntryLine> entries, @Nullable String customInstructions);

	/** Who writes the summaries ({@code openai}), as errors and meters name it. */
	String provider();

}

package dev.arbor.operations;

import org.jspecify.annotations.Nullable;

/**
 * A navigation inside a session (docs/SESSION-FORMAT.md#navigation).
 *
 * @param targetId the entry to navigate to
 * @param summarize whether the abandoned branch is summarized
 * @param customInstructions instructions for the summary, or {@code null} for the structured default
 * @param requestId the client's id for it, by which it can be aborted, or {@code null}
 */
public record NavigationRequest(String targetId, boolean summarize, @Nullable String customInstructions,
		@Nullable String requestId) {
}

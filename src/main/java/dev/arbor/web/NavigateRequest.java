package dev.arbor.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * {@code navigateTree(targetId, {summarize, customInstructions})} (docs/SESSION-FORMAT.md#navigation).
 *
 * @param targetId the entry to navigate to
 * @param summarize whether the branch left behind is summarized; {@code false} when absent
 * @param customInstructions instructions for the summary instead of the structured default
 * @param requestId the client's id for this navigation, by which it can be aborted while it summarizes
 */
@Schema(description = "Where to navigate, and whether to summarize the branch left behind.")
record NavigateRequest(@JsonProperty(required = true) @NotNull(message = "is required") @ValidId
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The entry to navigate to.", example = "a1b2c3d4") @Nullable String targetId,
		@Schema(description = "Summarize the branch left behind (needs a summary model, else 422).", defaultValue = "false", example = "false") @Nullable Boolean summarize,
		@Schema(description = "Instructions for the summary instead of the structured default.", example = "Focus on the parser decisions.") @Nullable String customInstructions,
		@ValidId @Schema(description = "Your id for this navigation: `DELETE /sessions/{sessionId}/navigations/{requestId}` aborts it while it runs.", example = "nav-1") @Nullable String requestId) {
}

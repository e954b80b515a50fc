package dev.arbor.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@code branchWithSummary(fromId, summary, details?, fromExtension?)}
 * (docs/SESSION-FORMAT.md#labels-compactions-branch-summaries-models-and-thinking-levels).
 *
 * @param fromId where the summary goes and the leaf moves: an entry, or {@code null} for a new root; required
 * @param summary the summary text
 * @param details anything the summarizer wants kept with it, any JSON value
 * @param fromExtension whether an extension rather than Arbor wrote it
 */
@Schema(description = "Moves the leaf to fromId and appends a branch_summary entry there.")
record BranchSummaryRequest(@JsonProperty(required = true) @ValidId
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The position navigated to: an entry id, or null for a new root (stored as fromId \"root\").", example = "a1b2c3d4") @Nullable String fromId,
		@NotNull(message = "is required") @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "The user tried a regex parser and dropped it: too slow on large files.") @Nullable String summary,
		@Schema(types = { "object", "array", "string", "number", "boolean" }, description = "Any JSON value, kept with the summary as given: its shape is the summarizer's (upstream leaves it open).", example = "{\"readFiles\":[\"src/parse.ts\"],\"modifiedFiles\":[]}") @Nullable JsonNode details,
		@Schema(example = "false") @Nullable Boolean fromExtension) {
}

package dev.arbor.summary;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A summary for a {@code branch_summary} entry.
 *
 * @param summary the text stored in the entry
 * @param details stored as the entry's {@code details} ({@code {readFiles, modifiedFiles}} for the built-in
 * summarizer), or {@code null}
 */
public record BranchSummary(String summary, @Nullable JsonNode details) {
}

package dev.arbor.summary;

import java.time.Duration;

/**
 * How much a summary request may hold and take.
 *
 * @param tokenBudget the most tokens of abandoned conversation sent (characters / 4)
 * @param maxOutputTokens the longest answer the model may write
 * @param timeout how long the answer may take; then the summary fails
 */
public record SummaryLimits(int tokenBudget, int maxOutputTokens, Duration timeout) {
}

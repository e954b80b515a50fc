package dev.arbor.navigation;

/** {@code summarize} was asked for and no summary model is configured (SESSION-TREE.md §7.1). */
public class NoSummaryModelException extends RuntimeException {

	public NoSummaryModelException() {
		super("No model available for summarization");
	}

}

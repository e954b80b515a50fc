package dev.arbor.operations;

/** {@code summarize} was asked for and no summary model is configured (docs/SESSION-FORMAT.md#navigation). */
public class NoSummaryModelException extends RuntimeException {

	public NoSummaryModelException() {
		super("No model available for summarization");
	}

}

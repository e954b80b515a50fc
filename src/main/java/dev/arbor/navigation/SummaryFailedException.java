package dev.arbor.navigation;

/** The summary model failed; the navigation changed nothing. */
public class SummaryFailedException extends RuntimeException {

	public SummaryFailedException(Throwable cause) {
		super("Summarization failed: " + cause.getMessage(), cause);
	}

}

package dev.arbor.operations;

/** The summary model failed; the navigation changed nothing. */
public class SummaryFailedException extends RuntimeException {

	private final String provider;

	public SummaryFailedException(String provider, Throwable cause) {
		super("The summary model (" + provider + ") failed: " + describe(cause), cause);
		this.provider = provider;
	}

	/** Who the summary was asked of ({@code openai}). */
	public String provider() {
		return this.provider;
	}

	/** The failure's message, and its root cause's when that says more ("Request failed: Connection refused"). */
	private static String describe(Throwable cause) {
		Throwable root = cause;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = text(cause);
		String rootMessage = text(root);
		return (root == cause || message.contains(rootMessage)) ? message : message + ": " + rootMessage;
	}

	private static String text(Throwable failure) {
		String message = failure.getMessage();
		return (message != null && !message.isBlank()) ? message : failure.getClass().getSimpleName();
	}

}

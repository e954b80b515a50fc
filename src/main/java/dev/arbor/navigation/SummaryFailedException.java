package dev.arbor.navigation;

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

	private static String describe(Throwable cause) {
		String message = cause.getMessage();
		return (message != null && !message.isBlank()) ? message : cause.getClass().getSimpleName();
	}

}

package dev.arbor.navigation;

/** A navigation of the session runs under the same {@code requestId} already. */
public class NavigationInProgressException extends RuntimeException {

	private final String sessionId;

	private final String requestId;

	public NavigationInProgressException(String sessionId, String requestId) {
		super("A navigation with requestId " + requestId + " is in flight already");
		this.sessionId = sessionId;
		this.requestId = requestId;
	}

	public String sessionId() {
		return this.sessionId;
	}

	public String requestId() {
		return this.requestId;
	}

}

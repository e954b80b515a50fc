package dev.arbor.navigation;

/** No navigation of the session is in flight under that {@code requestId} (or it is applying its result). */
public class NavigationNotFoundException extends RuntimeException {

	private final String sessionId;

	private final String requestId;

	public NavigationNotFoundException(String sessionId, String requestId) {
		super("No navigation with requestId " + requestId + " is in flight");
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

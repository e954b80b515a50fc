package dev.arbor.operations;

/** No navigation of the session is in flight under that {@code requestId} (or it is applying its result). */
public class NavigationNotFoundException extends NavigationRequestException {

	public NavigationNotFoundException(String sessionId, String requestId) {
		super(sessionId, requestId, "No navigation with requestId " + requestId + " is in flight");
	}

}

package dev.arbor.operations;

/** A navigation of the session runs under the same {@code requestId} already. */
public class NavigationInProgressException extends NavigationRequestException {

	public NavigationInProgressException(String sessionId, String requestId) {
		super(sessionId, requestId, "A navigation with requestId " + requestId + " is in flight already");
	}

}

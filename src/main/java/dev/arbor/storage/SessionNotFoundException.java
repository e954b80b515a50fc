package dev.arbor.storage;

/** No session with this id is stored. */
public class SessionNotFoundException extends RuntimeException {

	private final String sessionId;

	public SessionNotFoundException(String sessionId) {
		super("Session " + sessionId + " not found");
		this.sessionId = sessionId;
	}

	public String sessionId() {
		return this.sessionId;
	}

}

package dev.arbor.storage;

/** A session with this id is stored already (an import of a file whose id is taken). */
public class SessionExistsException extends RuntimeException {

	private final String sessionId;

	public SessionExistsException(String sessionId) {
		super("Session " + sessionId + " already exists");
		this.sessionId = sessionId;
	}

	public String sessionId() {
		return this.sessionId;
	}

}

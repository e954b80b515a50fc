package dev.arbor.operations;

/** About a navigation by the {@code requestId} a client gave it. */
public abstract class NavigationRequestException extends RuntimeException {

	private final String sessionId;

	private final String requestId;

	protected NavigationRequestException(String sessionId, String requestId, String message) {
		super(message);
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

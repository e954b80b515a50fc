package dev.arbor.web.edge;

/** A request without a valid API key. */
public class UnauthorizedException extends RuntimeException {

	private final boolean keyGiven;

	/**
	 * @param keyGiven whether a key came with the request (wrong) or none did
	 */
	UnauthorizedException(boolean keyGiven, String message) {
		super(message);
		this.keyGiven = keyGiven;
	}

	/** The {@code WWW-Authenticate} challenge (RFC 6750, section 3). */
	public String challenge() {
		return this.keyGiven ? "Bearer realm=\"arbor\", error=\"invalid_token\"" : "Bearer realm=\"arbor\"";
	}

}

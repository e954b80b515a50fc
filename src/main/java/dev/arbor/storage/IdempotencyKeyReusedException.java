package dev.arbor.storage;

/** The key was used for another request body on this session; retrying cannot help, a new key can. */
public class IdempotencyKeyReusedException extends IdempotencyKeyException {

	public IdempotencyKeyReusedException(String sessionId, String key) {
		super("Idempotency-Key " + key + " was used on session " + sessionId
				+ " for a different request body; send a new key for a new append, or the same body to retry", sessionId,
				key);
	}

}

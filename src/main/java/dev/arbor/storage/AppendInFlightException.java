package dev.arbor.storage;

/** The first append under the key is still running; a retry once it ends gets its answer. */
public class AppendInFlightException extends IdempotencyKeyException {

	AppendInFlightException(String sessionId, String key) {
		super("An append under Idempotency-Key " + key + " to session " + sessionId
				+ " is still running; retry once it has been answered", sessionId, key);
	}

}

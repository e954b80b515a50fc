package dev.arbor.storage;

/**
 * An append under an {@link IdempotencyKey} that cannot be answered by the earlier use of the key; nothing was
 * written (docs/API.md#idempotent-appends).
 */
public abstract class IdempotencyKeyException extends RuntimeException {

	private final String sessionId;

	private final String key;

	IdempotencyKeyException(String message, String sessionId, String key) {
		super(message);
		this.sessionId = sessionId;
		this.key = key;
	}

	public String sessionId() {
		return this.sessionId;
	}

	public String key() {
		return this.key;
	}

}

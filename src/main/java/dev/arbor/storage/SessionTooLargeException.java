package dev.arbor.storage;

/**
 * A write would make a session larger than the store can hold in memory at once; nothing was written. A session
 * is served from memory whole, so this bounds the memory one session can take, whatever is sent to it.
 */
public class SessionTooLargeException extends RuntimeException {

	private final String sessionId;

	private final long limitBytes;

	public SessionTooLargeException(String sessionId, long sizeBytes, long limitBytes) {
		super("Session " + sessionId + " would grow to " + sizeBytes + " bytes, beyond the " + limitBytes
				+ " bytes a session may take in memory (arbor.storage.max-session-size)");
		this.sessionId = sessionId;
		this.limitBytes = limitBytes;
	}

	public String sessionId() {
		return this.sessionId;
	}

	public long limitBytes() {
		return this.limitBytes;
	}

}

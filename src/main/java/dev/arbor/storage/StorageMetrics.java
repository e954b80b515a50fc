package dev.arbor.storage;

/**
 * What the store measures, for whoever records it (Micrometer, in the application). Called on the writing
 * thread: implementations must be quick.
 */
public interface StorageMetrics {

	/** Records nothing. */
	StorageMetrics NONE = new StorageMetrics() {
	};

	/**
	 * An append was acknowledged.
	 *
	 * @param entries how many entries it wrote
	 * @param nanos from the call to the acknowledgement: waiting for the session, writing and the fsync
	 */
	default void appended(int entries, long nanos) {
	}

	/** One fsync of a session file (shared by the appends it covers). */
	default void synced(long nanos) {
	}

	/**
	 * Entries that another process appended to a session's file were taken in.
	 *
	 * @param entries how many
	 */
	default void takenIn(int entries) {
	}

	/** A session's file was read again whole, because another process rewrote, replaced or shrank it. */
	default void reloaded() {
	}

}

package dev.arbor.storage;

/**
 * Told of every durable change of a store (events, metrics). Called on the writing thread, in order for each
 * session, so it must be quick and must not call back into the store's writes. The file store calls it once the
 * change is on disk; the PostgreSQL store calls it inside the transaction that makes the change, so that what it
 * writes to the same database commits with the change or not at all (and a listener that fails rolls it back).
 */
@FunctionalInterface
public interface SessionChangeListener {

	void onChange(SessionChange change);

	/**
	 * {@link #onChange} failed on a change that is durable all the same (memory ran out while it was rendered, say):
	 * the change stands, so a listener that passes changes on says that it lost one rather than nothing.
	 */
	default void onUndelivered(SessionChange change) {
	}

}

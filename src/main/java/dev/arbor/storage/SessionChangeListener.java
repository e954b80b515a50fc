package dev.arbor.storage;

/**
 * Told of every durable change of a store (events, metrics). Called on the writing thread, in order for each
 * session, so it must be quick and must not call back into the store's writes.
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

package dev.arbor.storage;

/**
 * Told of every durable change of a store (events, metrics). Called on the writing thread, in order for each
 * session, so it must be quick and must not call back into the store's writes.
 */
@FunctionalInterface
public interface SessionChangeListener {

	void onChange(SessionChange change);

}

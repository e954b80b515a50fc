package dev.arbor.storage.postgres;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The advisory lock that every change of a session takes first, in the store and in the event bus: changes of one
 * session commit one after the other, and a transaction gets its id only once it holds the lock. The event bus
 * relies on both to read events in an order no later reader contradicts.
 */
public final class SessionLocks {

	/** The first half of every key: "Arbr", so that Arbor's locks keep to themselves. */
	public static final int LOCK_SPACE = 0x41726272;

	private SessionLocks() {
	}

	/** Takes the session's lock until the transaction ends; call it before writing anything in the transaction. */
	public static void lock(JdbcClient jdbc, String sessionId) {
		jdbc.sql("SELECT pg_advisory_xact_lock(?, hashtext(?))").param(LOCK_SPACE).param(sessionId).query((rs, row) -> 1)
			.single();
	}

}

package dev.arbor.storage.postgres;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.arbor.events.EventType;
import dev.arbor.events.SessionEvent;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The SQL of {@code arbor_event} (see {@code db/migration/V1__session_store.sql}). An event is keyed by the
 * transaction that wrote it and its place in that transaction; its id on the wire packs both into one number, so
 * that ids increase in the order events are read.
 */
final class EventTable {

	/** Bits of an id for the event's place in its transaction: an append of 16 million entries is beyond any body. */
	static final int SEQ_BITS = 24;

	private static final long SEQ_MASK = (1L << SEQ_BITS) - 1;

	private static final long LOW_32 = 0xFFFF_FFFFL;

	/** Events inserted by one statement. */
	private static final int INSERT_BATCH = 1_000;

	private final JdbcClient jdbc;

	EventTable(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	static long id(long tx, int seq) {
		return (tx << SEQ_BITS) | seq;
	}

	static long tx(long id) {
		return id >>> SEQ_BITS;
	}

	static int seq(long id) {
		return (int) (id & SEQ_MASK);
	}

	/** The id of the caller's transaction, given it now if it has none. */
	long transactionId() {
		return this.jdbc.sql("SELECT pg_current_xact_id()::text::bigint").query(Long.class).single();
	}

	/**
	 * Inserts a transaction's events and notifies the replicas at its commit, in one round trip per thousand events
	 * (a statement takes at most 65,535 parameters).
	 */
	void insertAndNotify(long tx, List<Pending> events) {
		for (int from = 0; from < events.size(); from += INSERT_BATCH) {
			List<Pending> batch = events.subList(from, Math.min(events.size(), from + INSERT_BATCH));
			StringBuilder sql = new StringBuilder("WITH inserted AS (INSERT INTO arbor_event (tx, seq, session_id, type, data) VALUES ");
			for (int i = 0; i < batch.size(); i++) {
				sql.append((i == 0) ? "(?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?)");
			}
			sql.append(") SELECT pg_notify('").append(PostgresEventBus.CHANNEL).append("', '')");
			JdbcClient.StatementSpec statement = this.jdbc.sql(sql.toString());
			for (Pending event : batch) {
				if (event.seq() > SEQ_MASK) {
					throw new IllegalStateException("More than " + SEQ_MASK + " events in one transaction");
				}
				statement = statement.param(tx).param(event.seq()).param(event.sessionId()).param(event.type().name())
					.param(event.data());
			}
			statement.query((rs, row) -> 1).list();
		}
	}

	/** An event written in a transaction, inserted when it commits. */
	record Pending(int seq, String sessionId, EventType type, String data) {
	}

	/**
	 * The transaction id below which no event can appear any more: every transaction that might still write one
	 * holds a session's advisory lock ({@link SessionLocks}) and has taken it before it got its id. So it is the
	 * oldest id among the holders of such a lock, or else the next id to be given out. The next id is read first:
	 * a holder that gets its id after that gets a larger one.
	 */
	long horizon() {
		// One statement: its snapshot, and so the next id, is taken before it reads the locks.
		// pg_locks names a transaction by the low 32 bits of its id; a running one is within 2^31 below the next.
		return this.jdbc.sql("""
				SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS next, ARRAY(
					SELECT x.transactionid::text::bigint
					FROM pg_locks a JOIN pg_locks x ON x.pid = a.pid AND x.locktype = 'transactionid'
						AND x.mode = 'ExclusiveLock' AND x.granted
					WHERE a.locktype = 'advisory' AND a.classid = ?::oid AND a.objsubid = 2 AND a.granted
						AND a.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS holders""")
			.param(SessionLocks.LOCK_SPACE)
			.query((rs, row) -> {
				long next = rs.getLong("next");
				long horizon = next;
				for (Long low : (Long[]) rs.getArray("holders").getArray()) {
					long full = (next & ~LOW_32) | low;
					if (full >= next) {
						full -= 1L << 32;
					}
					horizon = Math.min(horizon, full);
				}
				return horizon;
			})
			.single();
	}

	/**
	 * Events after the given id, in order, of one session or of all; only those from transactions below
	 * {@code below}, unless it is {@code Long.MAX_VALUE} (the caller sorts out which can go out yet).
	 */
	List<SessionEvent> after(long afterId, long below, @Nullable String sessionId, int limit) {
		String session = (sessionId != null) ? " AND session_id = ?" : "";
		JdbcClient.StatementSpec query = this.jdbc
			.sql("SELECT tx, seq, session_id, type, data FROM arbor_event WHERE (tx, seq) > (?, ?) AND tx < ?" + session
					+ " ORDER BY tx, seq LIMIT ?")
			.param(tx(afterId))
			.param(seq(afterId))
			.param(below);
		if (sessionId != null) {
			query = query.param(sessionId);
		}
		return query.param(limit)
			.query((rs, row) -> new SessionEvent(id(rs.getLong("tx"), rs.getInt("seq")),
					EventType.valueOf(rs.getString("type")), rs.getString("session_id"), rs.getString("data")))
			.list();
	}

	/** The newest event below the horizon: where a replica that starts now begins delivering. */
	long newest(long horizon) {
		return this.jdbc.sql("SELECT tx, seq FROM arbor_event WHERE tx < ? ORDER BY tx DESC, seq DESC LIMIT 1")
			.param(horizon)
			.query((rs, row) -> id(rs.getLong("tx"), rs.getInt("seq")))
			.optional()
			.orElse(0L);
	}

	/** The newest event committed, whether it can be delivered yet or not; 0 when there is none. */
	long newestCommitted() {
		return this.jdbc.sql("SELECT tx, seq FROM arbor_event ORDER BY tx DESC, seq DESC LIMIT 1")
			.query((rs, row) -> id(rs.getLong("tx"), rs.getInt("seq")))
			.optional()
			.orElse(0L);
	}

	/** The newest event the retention removed: a client that saw less than this may have missed events. */
	long removedUpTo() {
		return this.jdbc.sql("SELECT tx, seq FROM arbor_event_horizon")
			.query((rs, row) -> id(rs.getLong("tx"), rs.getInt("seq")))
			.single();
	}

	/**
	 * Removes the events older than the retention, in the caller's transaction: every event up to the newest of
	 * them, so that everything after the recorded horizon is still there.
	 */
	void removeOlderThan(Duration retention) {
		Optional<Long> newestOld = this.jdbc
			.sql("""
					SELECT tx, seq FROM arbor_event WHERE created_at < now() - make_interval(secs => ?)
					ORDER BY tx DESC, seq DESC LIMIT 1""")
			.param((double) retention.toMillis() / 1000)
			.query((rs, row) -> id(rs.getLong("tx"), rs.getInt("seq")))
			.optional();
		if (newestOld.isEmpty()) {
			return;
		}
		long upTo = newestOld.get();
		this.jdbc.sql("DELETE FROM arbor_event WHERE (tx, seq) <= (?, ?)").param(tx(upTo)).param(seq(upTo)).update();
		this.jdbc.sql("UPDATE arbor_event_horizon SET tx = ?, seq = ? WHERE (tx, seq) < (?, ?)")
			.param(tx(upTo))
			.param(seq(upTo))
			.param(tx(upTo))
			.param(seq(upTo))
			.update();
	}

}

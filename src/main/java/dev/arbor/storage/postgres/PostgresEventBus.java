package dev.arbor.storage.postgres;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import dev.arbor.events.EventBus;
import dev.arbor.events.EventSink;
import dev.arbor.events.EventSinks;
import dev.arbor.events.EventType;
import dev.arbor.events.SessionEvent;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.ObjectNode;

/**
 * The event bus of the PostgreSQL store: every replica's events go to the {@code arbor_event} table, in the
 * transaction of the change they announce, and every replica hands them to its own subscribers from there, so a
 * subscriber on any replica gets every change, in one order, and {@code Last-Event-ID} replays from the table on
 * any replica, after restarts, for {@code arbor.events.retention}.
 * <p>
 * The order: an event is numbered by the id of the transaction that wrote it and its place in it, and delivered
 * only once no running transaction can still write one below it ({@link EventTable#horizon()}). So ids increase on
 * every stream, each replica delivers the same events in the same order, and one session's events come in the order
 * of its changes (they take the session's lock before their transaction gets its id). A commit sends a
 * {@code NOTIFY}; every replica then reads what is new ({@link DatabaseNotifications}), and also once per tick, for
 * what it missed.
 */
public final class PostgresEventBus implements EventBus {

	static final String CHANNEL = "arbor_events";

	/** The most events read at once. */
	private static final int BATCH = 500;

	/** How long to wait, between looks, for an older transaction to end before newer events can go out. */
	private static final long HORIZON_WAIT_MILLIS = 5;

	/** How many times to look before leaving it to the next notification or tick. */
	private static final int HORIZON_LOOKS = 200;

	private static final long PRUNE_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

	private final EventTable table;

	private final JdbcClient jdbc;

	private final TransactionTemplate transactions;

	private final Duration retention;

	/** Guards the sinks and the cursor: a subscriber's replay and the deliveries after it never overlap. */
	private final Object lock = new Object();

	private final EventSinks sinks = new EventSinks();

	/** Subscribers that start ahead of what this replica has delivered, as they were added to the sinks. */
	private final Map<EventSink, EventSink> ahead = new HashMap<>();

	/** The id of the last event delivered. */
	private long delivered;

	private long lastPrune = System.nanoTime() - PRUNE_EVERY_NANOS;

	/**
	 * @param jdbc the database, with its transactions joined
	 * @param transactions for events published outside a store's transaction (a navigation's)
	 * @param retention how long events are kept for replay
	 * @param notifications where this bus hears of new events
	 */
	public PostgresEventBus(JdbcClient jdbc, TransactionTemplate transactions, Duration retention,
			DatabaseNotifications notifications) {
		this.jdbc = jdbc;
		this.table = new EventTable(jdbc);
		this.transactions = transactions;
		this.retention = retention;
		this.delivered = this.table.newest(this.table.horizon()); // events before this replica started: replay only
		notifications.listen(CHANNEL, payload -> deliverNew(), this::catchUp);
	}

	/**
	 * Writes the event to the table. In a store's transaction (which holds the session's lock), it commits with the
	 * change it announces; otherwise in a transaction of its own, under the session's lock.
	 */
	@Override
	public SessionEvent publishRendered(EventType type, String sessionId, String data) {
		if (TransactionSynchronizationManager.isActualTransactionActive()) {
			return insert(type, sessionId, data);
		}
		SessionEvent event = this.transactions.execute(status -> {
			SessionLocks.lock(this.jdbc, sessionId);
			return insert(type, sessionId, data);
		});
		return Objects.requireNonNull(event);
	}

	@Override
	public void publishResync(String sessionId, String reason) {
		publish(EventType.RESYNC, sessionId, Json.newObject().put("reason", reason));
	}

	/**
	 * Subscribes from where the client is. Without {@code Last-Event-ID}, that is every event of a change committed
	 * from now on: those below the horizon have happened before (see {@link EventTable#horizon()}), whether this
	 * replica has delivered them yet or not. A {@code Last-Event-ID} may be ahead of this replica (the client saw it
	 * on a faster one): the subscriber then gets what comes after it, as this replica catches up.
	 */
	@Override
	public void subscribe(@Nullable String sessionId, @Nullable Long lastEventId, EventSink sink,
			Consumer<List<SessionEvent>> replay) {
		synchronized (this.lock) {
			long from;
			if (lastEventId == null) {
				from = EventTable.id(this.table.horizon(), 0) - 1;
			}
			else if (lastEventId < this.table.removedUpTo() || lastEventId > this.table.newestCommitted()) {
				replay.accept(List.of(resync(sessionId, lastEventId)));
				this.sinks.add(sessionId, sink);
				return;
			}
			else {
				from = lastEventId;
			}
			if (from <= this.delivered) {
				replay.accept(missed(sessionId, from));
				this.sinks.add(sessionId, sink);
			}
			else {
				replay.accept(List.of());
				EventSink ahead = new FromId(sink, from);
				this.ahead.put(sink, ahead);
				this.sinks.add(sessionId, ahead);
			}
		}
	}

	@Override
	public void unsubscribe(@Nullable String sessionId, EventSink sink) {
		synchronized (this.lock) {
			EventSink ahead = this.ahead.remove(sink);
			this.sinks.remove(sessionId, (ahead != null) ? ahead : sink);
		}
	}

	@Override
	public int subscribers() {
		synchronized (this.lock) {
			return this.sinks.size();
		}
	}

	/** Hands this replica's subscribers every event that can go out now, in order. */
	void deliverNew() {
		for (int look = 0; look < HORIZON_LOOKS; look++) {
			long horizon = this.table.horizon();
			boolean waiting = false;
			List<SessionEvent> events;
			do {
				// Read past the horizon too: what lies beyond it says whether to wait for an older transaction.
				events = this.table.after(this.delivered, Long.MAX_VALUE, null, BATCH);
				synchronized (this.lock) {
					for (SessionEvent event : events) {
						if (EventTable.tx(event.id()) >= horizon) {
							waiting = true;
							break;
						}
						this.sinks.deliver(event);
						this.delivered = event.id();
					}
				}
			}
			while (!waiting && events.size() == BATCH);
			if (!waiting) {
				return;
			}
			pause(); // committed events wait for an older transaction, which is about to end
		}
	}

	private void catchUp() {
		deliverNew();
		if (System.nanoTime() - this.lastPrune > PRUNE_EVERY_NANOS) {
			this.lastPrune = System.nanoTime();
			this.transactions.executeWithoutResult(status -> this.table.removeOlderThan(this.retention));
		}
	}

	/** The events after the client's, up to the last delivered here: newer ones reach it as they are delivered. */
	private List<SessionEvent> missed(@Nullable String sessionId, long lastEventId) {
		List<SessionEvent> events = new ArrayList<>();
		long after = lastEventId;
		while (true) {
			List<SessionEvent> batch = this.table.after(after, EventTable.tx(this.delivered) + 1, sessionId, BATCH);
			for (SessionEvent event : batch) {
				if (event.id() > this.delivered) {
					return events;
				}
				events.add(event);
			}
			if (batch.size() < BATCH) {
				return events;
			}
			after = batch.get(batch.size() - 1).id();
		}
	}

	/** Tells one client to refetch: numbered with the last id delivered, so that its next reconnect resumes here. */
	private SessionEvent resync(@Nullable String sessionId, long lastEventId) {
		ObjectNode data = Json.newObject()
			.put("sessionId", sessionId)
			.put("lastEventId", lastEventId)
			.put("reason", "replay-unavailable");
		return new SessionEvent(this.delivered, EventType.RESYNC, sessionId, Json.toString(data));
	}

	/** Keeps the event to be inserted when the transaction commits, numbered by the transaction and its place in it. */
	private SessionEvent insert(EventType type, String sessionId, String data) {
		Written written = writtenInTransaction();
		int seq = written.events.size();
		written.events.add(new EventTable.Pending(seq, sessionId, type, data));
		return new SessionEvent(EventTable.id(written.tx, seq), type, sessionId, data);
	}

	/**
	 * The events of the current transaction; the first one takes the transaction's id and arranges for them all to
	 * be inserted, with the {@code NOTIFY}, in one round trip just before it commits.
	 */
	private Written writtenInTransaction() {
		Written written = (Written) TransactionSynchronizationManager.getResource(this);
		if (written == null) {
			Written first = new Written(this.table.transactionId());
			TransactionSynchronizationManager.bindResource(this, first);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void beforeCommit(boolean readOnly) {
					PostgresEventBus.this.table.insertAndNotify(first.tx, first.events);
				}

				@Override
				public void afterCompletion(int status) {
					TransactionSynchronizationManager.unbindResourceIfPossible(PostgresEventBus.this);
				}

			});
			written = first;
		}
		return written;
	}

	private static void pause() {
		try {
			Thread.sleep(HORIZON_WAIT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** A subscriber that starts after an id this replica has not delivered yet: it gets only what comes after. */
	private static final class FromId implements EventSink {

		private final EventSink sink;

		private final long after;

		FromId(EventSink sink, long after) {
			this.sink = sink;
			this.after = after;
		}

		@Override
		public boolean offer(SessionEvent event) {
			return event.id() <= this.after || this.sink.offer(event);
		}

	}

	/** The events of one transaction, and its id. */
	private static final class Written {

		final long tx;

		final List<EventTable.Pending> events = new ArrayList<>();

		Written(long tx) {
			this.tx = tx;
		}

	}

}

package dev.arbor.storage.postgres;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.arbor.storage.NavigationLease;
import dev.arbor.storage.SessionNotFoundException;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Navigations holding their sessions across replicas: a lease in the session's row ({@code nav_owner},
 * {@code nav_expires_at}), renewed while the navigation runs, so that no connection stays open during a model call
 * and a replica that dies lets go of its sessions when its leases expire. Other replicas' writes to the session wait
 * while it is held (see {@link PostgresSessionStore}). An abort asked of another replica sets {@code nav_abort} and
 * notifies; the replica holding the lease hears it at once, or at its next renewal if it missed the notification.
 * Before it changes the session, the navigation sets {@code nav_applying} unless {@code nav_abort} is set: two
 * updates of one row, so whichever comes first decides, and the abort is answered truthfully
 * (docs/API.md#navigation).
 */
final class NavigationLeases implements AutoCloseable {

	static final String CHANNEL = "arbor_aborts";

	private static final System.Logger LOGGER = System.getLogger(NavigationLeases.class.getName());

	/** How long to wait between looks while another replica's navigation holds the session. */
	private static final long WAIT_MILLIS = 20;

	private final JdbcClient jdbc;

	private final TransactionTemplate transactions;

	private final String replicaId;

	private final Duration duration;

	private final ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor(runnable -> {
		Thread thread = new Thread(runnable, "arbor-lease-renewal");
		thread.setDaemon(true);
		return thread;
	});

	/** The leases this replica holds, by session (its gates allow one navigation per session). */
	private final Map<String, Held> held = new ConcurrentHashMap<>();

	NavigationLeases(JdbcClient jdbc, TransactionTemplate transactions, String replicaId, Duration duration,
			DatabaseNotifications notifications) {
		this.jdbc = jdbc;
		this.transactions = transactions;
		this.replicaId = replicaId;
		this.duration = duration;
		notifications.listen(CHANNEL, this::abortRequested, this::checkAborts);
	}

	/** Takes the session's lease, waiting while another replica holds it. */
	NavigationLease hold(String sessionId, @Nullable String requestId, Future<?> abort) {
		while (!Boolean.TRUE.equals(this.transactions.execute(status -> tryTake(sessionId, requestId)))) {
			if (abort.isDone()) {
				throw new CancellationException("Aborted while another replica's navigation held the session");
			}
			pause();
		}
		Held lease = new Held(sessionId, requestId);
		this.held.put(sessionId, lease);
		long every = Math.max(1, this.duration.toMillis() / 3);
		lease.renewal = this.renewals.scheduleWithFixedDelay(() -> renew(lease), every, every, TimeUnit.MILLISECONDS);
		return lease;
	}

	/**
	 * Asks the replica that holds the session for this navigation to abort it; whether it took (one holds it and
	 * has not committed to apply its result).
	 */
	boolean requestAbort(String sessionId, String requestId) {
		Boolean asked = this.transactions.execute(status -> {
			int updated = this.jdbc.sql("""
					UPDATE arbor_session SET nav_abort = true
					WHERE id = ? AND nav_request_id = ? AND nav_expires_at > now() AND nav_owner <> ?
						AND NOT nav_applying""")
				.param(sessionId)
				.param(requestId)
				.param(this.replicaId)
				.update();
			if (updated == 1) {
				this.jdbc.sql("SELECT pg_notify(?, ?)").param(CHANNEL).param(sessionId + " " + requestId)
					.query((rs, row) -> 1).single();
			}
			return updated == 1;
		});
		return Boolean.TRUE.equals(asked);
	}

	@Override
	public void close() {
		this.renewals.shutdownNow();
	}

	private boolean tryTake(String sessionId, @Nullable String requestId) {
		SessionLocks.lock(this.jdbc, sessionId); // a write in progress finishes first, and none starts meanwhile
		int taken = this.jdbc.sql("""
				UPDATE arbor_session SET nav_owner = ?, nav_request_id = ?,
					nav_expires_at = now() + make_interval(secs => ?), nav_abort = false, nav_applying = false
				WHERE id = ? AND (nav_expires_at IS NULL OR nav_expires_at <= now() OR nav_owner = ?)""")
			.param(this.replicaId)
			.param(requestId)
			.param(seconds(this.duration))
			.param(sessionId)
			.param(this.replicaId)
			.update();
		if (taken == 1) {
			return true;
		}
		boolean exists = this.jdbc.sql("SELECT EXISTS (SELECT 1 FROM arbor_session WHERE id = ?)")
			.param(sessionId)
			.query(Boolean.class)
			.single();
		if (!exists) {
			throw new SessionNotFoundException(sessionId);
		}
		return false;
	}

	private void renew(Held lease) {
		try {
			Boolean abort = this.jdbc.sql("""
					UPDATE arbor_session SET nav_expires_at = now() + make_interval(secs => ?)
					WHERE id = ? AND nav_owner = ? RETURNING nav_abort""")
				.param(seconds(this.duration))
				.param(lease.sessionId)
				.param(this.replicaId)
				.query(Boolean.class)
				.optional()
				.orElse(null);
			if (abort == null) {
				LOGGER.log(System.Logger.Level.WARNING, "The navigation lease of session " + lease.sessionId
						+ " expired before it was renewed: other replicas may write meanwhile");
			}
			else if (abort) {
				lease.aborted.complete(null);
			}
		}
		catch (RuntimeException ex) {
			LOGGER.log(System.Logger.Level.WARNING, "Could not renew the navigation lease of session " + lease.sessionId, ex);
		}
	}

	private void abortRequested(String payload) {
		int space = payload.indexOf(' ');
		if (space > 0) {
			Held lease = this.held.get(payload.substring(0, space));
			if (lease != null && Objects.equals(lease.requestId, payload.substring(space + 1))) {
				lease.aborted.complete(null);
			}
		}
	}

	/** For aborts whose notification was missed. */
	private void checkAborts() {
		for (Held lease : this.held.values()) {
			boolean abort = this.jdbc.sql("SELECT nav_abort FROM arbor_session WHERE id = ? AND nav_owner = ?")
				.param(lease.sessionId)
				.param(this.replicaId)
				.query(Boolean.class)
				.optional()
				.orElse(false);
			if (abort) {
				lease.aborted.complete(null);
			}
		}
	}

	private static double seconds(Duration duration) {
		return duration.toMillis() / 1000.0;
	}

	private static void pause() {
		try {
			Thread.sleep(WAIT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("Interrupted while another replica's navigation held the session");
		}
	}

	/** One lease this replica holds. */
	private final class Held implements NavigationLease {

		private final String sessionId;

		private final @Nullable String requestId;

		private final CompletableFuture<Void> aborted = new CompletableFuture<>();

		private volatile @Nullable ScheduledFuture<?> renewal;

		private Held(String sessionId, @Nullable String requestId) {
			this.sessionId = sessionId;
			this.requestId = requestId;
		}

		@Override
		public CompletableFuture<Void> aborted() {
			return this.aborted;
		}

		@Override
		public boolean commit() {
			if (this.requestId == null) {
				return true; // nobody can abort it by id
			}
			Boolean applying = NavigationLeases.this.jdbc.sql("""
					UPDATE arbor_session SET nav_applying = NOT nav_abort
					WHERE id = ? AND nav_owner = ? RETURNING nav_applying""")
				.param(this.sessionId)
				.param(NavigationLeases.this.replicaId)
				.query(Boolean.class)
				.optional()
				.orElse(null);
			// No row of ours: the lease expired and was taken, so no abort can reach it through the row any more (the
			// renewal has warned that others may write meanwhile).
			return applying == null || applying;
		}

		@Override
		public void close() {
			ScheduledFuture<?> scheduled = this.renewal;
			if (scheduled != null) {
				scheduled.cancel(false);
			}
			NavigationLeases.this.held.remove(this.sessionId, this);
			try {
				NavigationLeases.this.jdbc.sql("""
						UPDATE arbor_session SET nav_owner = NULL, nav_request_id = NULL, nav_expires_at = NULL,
							nav_abort = false, nav_applying = false
						WHERE id = ? AND nav_owner = ?""")
					.param(this.sessionId)
					.param(NavigationLeases.this.replicaId)
					.update();
			}
			catch (RuntimeException ex) {
				// It expires by itself; other replicas' writes wait until then.
				LOGGER.log(System.Logger.Level.WARNING, "Could not release the navigation lease of session "
						+ this.sessionId + "; it expires by itself", ex);
			}
		}

	}

}

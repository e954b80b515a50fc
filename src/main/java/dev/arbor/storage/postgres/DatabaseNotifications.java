package dev.arbor.storage.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL's {@code LISTEN}: one connection of this replica's, held open on a thread of its own, hands each
 * notification to its channel's handler. Notifications can be missed (while the connection is lost, say), so
 * handlers also run on every tick and after every reconnect, and must catch up from the tables themselves.
 */
public final class DatabaseNotifications implements AutoCloseable {

	private static final System.Logger LOGGER = System.getLogger(DatabaseNotifications.class.getName());

	/** How long to wait before connecting again after the connection failed. */
	private static final long RECONNECT_MILLIS = 1_000;

	private final DataSource dataSource;

	private final Duration tick;

	private final Map<String, Consumer<String>> handlers = new ConcurrentHashMap<>();

	private final List<Runnable> catchUps = new CopyOnWriteArrayList<>();

	private volatile boolean running;

	private @Nullable Thread thread;

	/**
	 * @param dataSource where the connection comes from (it is held for as long as this runs)
	 * @param tick how long to wait for a notification before the catch-ups run anyway
	 */
	public DatabaseNotifications(DataSource dataSource, Duration tick) {
		this.dataSource = dataSource;
		this.tick = tick;
	}

	/**
	 * Listens on a channel; before {@link #start}.
	 *
	 * @param channel a channel name: letters, digits and underscores
	 * @param handler takes each notification's payload, on the listening thread
	 * @param catchUp runs on every tick and after every (re)connect, for what notifications missed
	 */
	public void listen(String channel, Consumer<String> handler, Runnable catchUp) {
		if (!channel.matches("[a-z_][a-z0-9_]*")) {
			throw new IllegalArgumentException("Not a channel name: " + channel);
		}
		this.handlers.put(channel, handler);
		this.catchUps.add(catchUp);
	}

	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.running = true;
		Thread listening = new Thread(this::run, "arbor-db-notifications");
		listening.setDaemon(true);
		this.thread = listening;
		listening.start();
	}

	@Override
	public void close() {
		Thread listening;
		synchronized (this) {
			this.running = false;
			listening = this.thread;
			this.thread = null;
		}
		if (listening != null) {
			try {
				listening.join(this.tick.toMillis() + RECONNECT_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void run() {
		while (this.running) {
			try (Connection connection = this.dataSource.getConnection()) {
				connection.setAutoCommit(true);
				try (Statement statement = connection.createStatement()) {
					for (String channel : this.handlers.keySet()) {
						statement.execute("LISTEN " + channel);
					}
				}
				PGConnection notifications = connection.unwrap(PGConnection.class);
				catchUp();
				while (this.running) {
					PGNotification[] received = notifications.getNotifications((int) this.tick.toMillis());
					if (received == null || received.length == 0) {
						catchUp();
						continue;
					}
					handle(received);
				}
			}
			catch (SQLException | RuntimeException ex) {
				if (this.running) {
					LOGGER.log(System.Logger.Level.WARNING,
							"Lost the database connection that listens for other replicas' changes; connecting again", ex);
					pause();
				}
			}
		}
	}

	/**
	 * Hands each channel's payloads to its handler, each distinct one once: a replica that was busy finds many
	 * notifications at once (one per commit of every replica), and a handler catches up with all of them at once.
	 */
	private void handle(PGNotification[] received) {
		Map<String, Set<String>> payloads = new LinkedHashMap<>();
		for (PGNotification notification : received) {
			payloads.computeIfAbsent(notification.getName(), channel -> new LinkedHashSet<>())
				.add(notification.getParameter());
		}
		payloads.forEach((channel, distinct) -> {
			Consumer<String> handler = this.handlers.get(channel);
			if (handler != null) {
				for (String payload : distinct) {
					try {
						handler.accept(payload);
					}
					catch (RuntimeException ex) {
						LOGGER.log(System.Logger.Level.WARNING, "Failed to handle a notification on " + channel, ex);
					}
				}
			}
		});
	}

	private void catchUp() {
		for (Runnable catchUp : this.catchUps) {
			try {
				catchUp.run();
			}
			catch (RuntimeException ex) {
				LOGGER.log(System.Logger.Level.WARNING, "Failed to catch up with other replicas' changes", ex);
			}
		}
	}

	private static void pause() {
		try {
			Thread.sleep(RECONNECT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}

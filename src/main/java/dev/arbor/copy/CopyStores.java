package dev.arbor.copy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import dev.arbor.config.ArborProperties;
import dev.arbor.events.StoreEvents;
import dev.arbor.storage.StorageMetrics;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.postgres.DatabaseNotifications;
import dev.arbor.storage.postgres.PostgresEventBus;
import dev.arbor.storage.postgres.PostgresSessionStore;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Opens the two stores of a copy from the settings the server's stores are made from ({@code arbor.storage.*},
 * {@code arbor.events.retention}, the data source). Each gets half of {@code arbor.storage.cache-size}: the server
 * holds one store in that budget, the copy two.
 */
final class CopyStores {

	/** Never reached: the copy's notifications are never started (it takes no aborts and follows no events). */
	private static final Duration NO_TICK = Duration.ofMinutes(1);

	private final ArborProperties properties;

	private final DataSource dataSource;

	private final JdbcTemplate jdbc;

	private final PlatformTransactionManager transactions;

	CopyStores(ArborProperties properties, DataSource dataSource, JdbcTemplate jdbc,
			PlatformTransactionManager transactions) {
		this.properties = properties;
		this.dataSource = dataSource;
		this.jdbc = jdbc;
		this.transactions = transactions;
	}

	/** {@code arbor.storage.dir}, absolute. */
	Path folder() {
		return this.properties.storage().dir().toAbsolutePath().normalize();
	}

	/** The store over {@link #folder()}, which it creates if missing. */
	FileSessionStore openFolder() {
		ArborProperties.Storage storage = this.properties.storage();
		return new FileSessionStore(folder(), storage.fsync(), storage.cacheSize().toBytes() / 2,
				storage.maxSessionSize().toBytes(), Clock.systemUTC(), StorageMetrics.NONE, storage.tornTailGrace(),
				storage.followLinks());
	}

	/**
	 * The store over the database. What it writes is announced as a replica's writes are (in the events table, in the
	 * same transaction), so the streams of running replicas tell of the sessions copied in.
	 */
	PostgresSessionStore openDatabase() {
		ArborProperties.Storage storage = this.properties.storage();
		DatabaseNotifications notifications = new DatabaseNotifications(this.dataSource, NO_TICK);
		PostgresSessionStore store = new PostgresSessionStore(this.jdbc, this.transactions, "copy-" + UUID.randomUUID(),
				storage.cacheSize().toBytes() / 2, storage.maxSessionSize().toBytes(), Clock.systemUTC(),
				StorageMetrics.NONE, notifications, storage.navigationLease(),
				this.properties.api().idempotencyWindow());
		PostgresEventBus events = new PostgresEventBus(JdbcClient.create(this.jdbc),
				new TransactionTemplate(this.transactions), this.properties.events().retention(), notifications);
		store.addChangeListener(new StoreEvents(events));
		return store;
	}

}

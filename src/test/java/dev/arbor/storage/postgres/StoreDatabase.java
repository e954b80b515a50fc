package dev.arbor.storage.postgres;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import dev.arbor.events.StoreEvents;
import dev.arbor.storage.StorageMetrics;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A test database with Arbor's schema, and stores on it as the application builds them, without an application:
 * several on one database are several replicas.
 */
final class StoreDatabase implements AutoCloseable {

	final HikariDataSource dataSource = new HikariDataSource();

	final JdbcTemplate jdbc;

	final DataSourceTransactionManager transactions;

	private final java.util.List<AutoCloseable> opened = new java.util.ArrayList<>();

	StoreDatabase() {
		TestDatabases.Database database = TestDatabases.create();
		this.dataSource.setJdbcUrl(database.url());
		this.dataSource.setUsername(database.user());
		this.dataSource.setPassword(database.password());
		this.dataSource.setMaximumPoolSize(10);
		Flyway.configure().dataSource(this.dataSource).load().migrate();
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.transactions = new DataSourceTransactionManager(this.dataSource);
	}

	/** A replica's store, with its own notifications connection (started) and cache budget. */
	PostgresSessionStore store(long cacheBudgetBytes) {
		return replica(cacheBudgetBytes).store();
	}

	PostgresSessionStore store() {
		return store(Long.MAX_VALUE);
	}

	/** A replica: its store, and its event bus listening for every replica's events, as the application wires them. */
	Replica replica(long cacheBudgetBytes) {
		Replica replica = stoppedReplica(cacheBudgetBytes);
		replica.notifications().start();
		return replica;
	}

	/** A replica that hears of no event until its notifications are started: one that lags behind the others. */
	Replica stoppedReplica(long cacheBudgetBytes) {
		DatabaseNotifications notifications = new DatabaseNotifications(this.dataSource, Duration.ofMillis(200));
		PostgresSessionStore store = new PostgresSessionStore(this.jdbc, this.transactions,
				UUID.randomUUID().toString(), cacheBudgetBytes, Long.MAX_VALUE, Clock.systemUTC(), StorageMetrics.NONE,
				notifications, Duration.ofSeconds(15), Duration.ofHours(24));
		PostgresEventBus bus = new PostgresEventBus(JdbcClient.create(this.jdbc), new TransactionTemplate(this.transactions),
				Duration.ofHours(1), notifications);
		store.addChangeListener(new StoreEvents(bus));
		this.opened.add(store);
		this.opened.add(notifications);
		return new Replica(store, bus, notifications);
	}

	record Replica(PostgresSessionStore store, PostgresEventBus bus, DatabaseNotifications notifications) {
	}

	@Override
	public void close() throws Exception {
		for (AutoCloseable each : this.opened) {
			each.close();
		}
		this.dataSource.close();
	}

}

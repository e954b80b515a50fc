package dev.arbor.config;

import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import dev.arbor.events.EventBus;
import dev.arbor.events.StoreEvents;
import dev.arbor.storage.SessionSearch;
import dev.arbor.storage.postgres.DatabaseNotifications;
import dev.arbor.storage.postgres.PostgresEventBus;
import dev.arbor.storage.postgres.PostgresSessionSearch;
import dev.arbor.storage.postgres.PostgresSessionStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The PostgreSQL store ({@code arbor.storage.type=postgres}): sessions and events in the database that
 * {@code spring.datasource.*} names, its schema migrated by Flyway at start-up, shared by every replica.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "arbor.storage.type", havingValue = "postgres")
class PostgresStorageConfiguration {

	/** How often a replica looks for what notifications may have missed. */
	private static final Duration CATCH_UP_TICK = Duration.ofMillis(500);

	/** This process among the replicas: what a navigation's lease names. */
	private final String replicaId = UUID.randomUUID().toString();

	@Bean(destroyMethod = "close")
	@DependsOnDatabaseInitialization
	PostgresSessionStore sessionStore(JdbcTemplate jdbc, PlatformTransactionManager transactions,
			ArborProperties properties, Clock clock, MeterRegistry meters, DatabaseNotifications notifications) {
		ArborProperties.Storage storage = properties.storage();
		PostgresSessionStore store = new PostgresSessionStore(jdbc, transactions, this.replicaId,
				storage.cacheSize().toBytes(), storage.maxSessionSize().toBytes(), clock,
				new MicrometerStorageMetrics(meters), notifications, storage.navigationLease(),
				properties.api().idempotencyWindow());
		Gauge.builder("arbor.sessions.loaded", store, PostgresSessionStore::loadedSessions)
			.description("Sessions held in memory")
			.register(meters);
		return store;
	}

	/** Search over the store's rows; after the store, which indexes sessions stored before search at start-up. */
	@Bean
	SessionSearch sessionSearch(JdbcTemplate jdbc, PlatformTransactionManager transactions, PostgresSessionStore store) {
		return new PostgresSessionSearch(jdbc, transactions);
	}

	@Bean(destroyMethod = "close")
	DatabaseNotifications databaseNotifications(DataSource dataSource) {
		return new DatabaseNotifications(dataSource, CATCH_UP_TICK);
	}

	/** Listens once every listener is registered, and stops before the data source closes. */
	@Bean
	SmartLifecycle databaseNotificationsLifecycle(DatabaseNotifications notifications) {
		return new SmartLifecycle() {

			private volatile boolean running;

			@Override
			public void start() {
				notifications.start();
				this.running = true;
			}

			@Override
			public void stop() {
				notifications.close();
				this.running = false;
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

		};
	}

	@Bean
	@DependsOnDatabaseInitialization
	EventBus eventBus(JdbcTemplate jdbc, PlatformTransactionManager transactions, ArborProperties properties,
			DatabaseNotifications notifications, PostgresSessionStore store) {
		PostgresEventBus bus = new PostgresEventBus(JdbcClient.create(jdbc), new TransactionTemplate(transactions),
				properties.events().retention(), notifications);
		store.addChangeListener(new StoreEvents(bus));
		return bus;
	}

	/** {@code storage} in {@code /actuator/health} and the readiness group: the database answers, with the schema. */
	@Bean
	@DependsOnDatabaseInitialization
	DatabaseStorageHealthIndicator storageHealthIndicator(JdbcTemplate jdbc) {
		return new DatabaseStorageHealthIndicator(jdbc);
	}

}

package dev.arbor.storage.postgres;

import org.springframework.test.context.DynamicPropertyRegistry;

/** What points an application context at a database of its own ({@link TestDatabases}). */
public final class PostgresProperties {

	private PostgresProperties() {
	}

	/** The PostgreSQL store, on a new database; call from a {@code @DynamicPropertySource}. */
	public static TestDatabases.Database register(DynamicPropertyRegistry registry) {
		TestDatabases.Database database = TestDatabases.create();
		registry.add("arbor.storage.type", () -> "postgres");
		registry.add("spring.datasource.url", database::url);
		registry.add("spring.datasource.username", database::user);
		registry.add("spring.datasource.password", database::password);
		// Test classes run one after the other: a small pool each keeps the server's connection limit (100) far away.
		registry.add("spring.datasource.hikari.maximum-pool-size", () -> "4");
		registry.add("spring.datasource.hikari.minimum-idle", () -> "1");
		return database;
	}

}

package dev.arbor.web;

import dev.arbor.storage.postgres.PostgresProperties;
import dev.arbor.storage.postgres.RequiresPostgres;
import dev.arbor.storage.postgres.TestDatabases;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link SearchApiContract} on the PostgreSQL store. */
@RequiresPostgres
@DirtiesContext // its own database: the context is never used again, and its connections go back now
class PostgresSearchApiTests extends SearchApiContract {

	static TestDatabases.Database database;

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		database = PostgresProperties.register(registry);
	}

}

package dev.arbor.web;

import dev.arbor.storage.postgres.PostgresProperties;
import dev.arbor.storage.postgres.RequiresPostgres;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link TreeRowsWindowApiContract} on the PostgreSQL store. */
@RequiresPostgres
@DirtiesContext // its own database: the context is never used again, and its connections go back now
class PostgresTreeRowsWindowApiTests extends TreeRowsWindowApiContract {

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		PostgresProperties.register(registry);
	}

}

package dev.arbor.web;

import dev.arbor.storage.postgres.PostgresProperties;
import dev.arbor.storage.postgres.RequiresPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link TreeOutlineApiContract} on the PostgreSQL store. */
@RequiresPostgres
class PostgresTreeOutlineApiTests extends TreeOutlineApiContract {

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		PostgresProperties.register(registry);
	}

}

package dev.arbor.web;

import java.nio.charset.StandardCharsets;

import dev.arbor.storage.postgres.PostgresProperties;
import dev.arbor.storage.postgres.RequiresPostgres;
import dev.arbor.storage.postgres.TestDatabases;
import org.jspecify.annotations.Nullable;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link LineageApiContract} on the PostgreSQL store, where a session written by hand comes in as an import. */
@RequiresPostgres
@DirtiesContext // its own database: the context is never used again, and its connections go back now
class PostgresLineageApiTests extends LineageApiContract {

	static TestDatabases.Database database;

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		database = PostgresProperties.register(registry);
	}

	@Override
	void storeByHand(String id, String timestamp, @Nullable String parentSession) {
		ApiSessions.importOnce(this.client, id, header(id, timestamp, parentSession).getBytes(StandardCharsets.UTF_8));
	}

}

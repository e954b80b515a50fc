package dev.arbor.config;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which auto-configurations the storage type lets in: JDBC and Flyway only where a store of the process is
 * PostgreSQL, the server's or the copy command's.
 */
class StorageTypeImportsTests {

	private static final String[] CANDIDATES = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
			"org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
			"org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration" };

	@Test
	void matchWithTheFileStoreShouldLeaveOutJdbcAndFlyway() {
		assertThat(matches(Map.of())).containsExactly(false, false, true);
		assertThat(matches(Map.of("arbor.storage.type", "file"))).containsExactly(false, false, true);
	}

	@Test
	void matchWithThePostgresStoreShouldLetEverythingIn() {
		assertThat(matches(Map.of("arbor.storage.type", "postgres"))).containsExactly(true, true, true);
	}

	@Test
	void matchWhenTheCopyCommandCopiesFromOrToPostgresShouldLetEverythingIn() {
		assertThat(matches(Map.of("arbor.copy.from", "file", "arbor.copy.to", "postgres"))).containsExactly(true,
				true, true);
		assertThat(matches(Map.of("arbor.copy.from", "postgres", "arbor.copy.to", "file"))).containsExactly(true,
				true, true);
	}

	@Test
	void matchWhenATypeIsNoneShouldLetEverythingInForValidationToReport() {
		assertThat(matches(Map.of("arbor.storage.type", "mysql"))).containsExactly(true, true, true);
	}

	private static boolean[] matches(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		StorageTypeImports imports = new StorageTypeImports();
		imports.setEnvironment(environment);
		return imports.match(CANDIDATES, null);
	}

}

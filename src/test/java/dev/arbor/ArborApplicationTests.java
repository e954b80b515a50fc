package dev.arbor;

import java.nio.file.Path;

import javax.sql.DataSource;

import dev.arbor.storage.SessionStore;
import dev.arbor.storage.file.FileSessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The application starts with its storage under {@code arbor.storage.dir}. */
@SpringBootTest
class ArborApplicationTests {

	@TempDir
	static Path dataDir;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", () -> dataDir.resolve("sessions").toString());
	}

	@Test
	void contextShouldStartWithTheConfiguredStorageDirectory(@Autowired SessionStore store) {
		assertThat(store).isInstanceOf(FileSessionStore.class);
		assertThat(((FileSessionStore) store).root()).isEqualTo(dataDir.resolve("sessions").toAbsolutePath());
		assertThat(((FileSessionStore) store).root()).isDirectory();
	}

	/** The file store starts as it did before the PostgreSQL store, the copy command's JDBC included: without any. */
	@Test
	void contextWithTheFileStoreShouldHaveNoDataSource(@Autowired ApplicationContext context) {
		assertThat(context.getBeanNamesForType(DataSource.class)).isEmpty();
	}

}

package dev.arbor.web;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link TreeRowsWindowApiContract} on the file store. */
class FileTreeRowsWindowApiTests extends TreeRowsWindowApiContract {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

}

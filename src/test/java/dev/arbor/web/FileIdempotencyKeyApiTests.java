package dev.arbor.web;

import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link IdempotencyKeyApiContract} on the file store. */
class FileIdempotencyKeyApiTests extends IdempotencyKeyApiContract {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Override
	StoredState stored() {
		return StoredState.files(storage);
	}

}

package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link PiListingContract} on the file store, the sessions written into its folder as pi writes them. */
class FilePiListingTests extends PiListingContract {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Override
	void store(String name, String text) {
		try {
			Path folder = Files.createDirectories(storage.resolve("--work-listing--"));
			Files.writeString(folder.resolve(name + ".jsonl"), text, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

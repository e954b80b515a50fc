package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SearchApiContract} on the file store, and what only it has: an index under the storage folder's
 * {@code .arbor/search} that can be deleted, cut short or overwritten behind Arbor's back. A search then answers,
 * never with a 5xx, and the results are complete again once the store has rebuilt the index
 * (docs/API.md#search).
 */
class FileSearchApiTests extends SearchApiContract {

	/** A rebuild reads every session of the folder again: longer than an append takes to be found. */
	static final Duration REBUILT = Duration.ofSeconds(30);

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Test
	void anIndexDeletedWhileRunningShouldBeRebuilt() {
		damaged(file -> {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	@Test
	void anIndexCutShortWhileRunningShouldBeRebuilt() {
		damaged(file -> {
			try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
				channel.truncate(channel.size() / 2);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	@Test
	void anIndexOverwrittenWithGarbageWhileRunningShouldBeRebuilt() {
		damaged(file -> {
			try {
				Files.write(file, "not a Lucene file at all ".repeat(64).getBytes(StandardCharsets.US_ASCII));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		});
	}

	/**
	 * Damages every file of the index, then searches as a client would: every answer a 200, and within
	 * {@link #REBUILT} the entries from before and one appended after are all found, not partial.
	 */
	private void damaged(Consumer<Path> damage) {
		String word = word();
		String session = ApiSessions.create(this.client);
		String before = ApiSessions.appendUser(this.client, session, word + " before the damage");
		await(Map.of("q", word), hits(1));

		List<Path> files = indexFiles();
		assertThat(files).as("index files under .arbor/search").isNotEmpty();
		files.forEach(file -> {
			try {
				damage.accept(file);
			}
			catch (UncheckedIOException ex) {
				// Lucene deleted or replaced it meanwhile: the others are damaged all the same
			}
		});
		search(Map.of("q", word));
		String after = ApiSessions.appendUser(this.client, session, word + " after the damage");
		assertThat(entryIds(await(Map.of("q", word), hits(2), REBUILT))).containsExactlyInAnyOrder(before, after);
	}

	private static List<Path> indexFiles() {
		try (Stream<Path> files = Files.walk(storage.resolve(".arbor").resolve("search"))) {
			return files.filter(Files::isRegularFile)
				.filter(file -> !file.getFileName().toString().equals("write.lock"))
				.sorted(Comparator.naturalOrder())
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

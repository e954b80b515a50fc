package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LineageApiContract} on the file store, with sessions written into the folder behind Arbor's back, and what
 * only files have: pi's forks name their parent by the path of its file.
 */
class FileLineageApiTests extends LineageApiContract {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	/** Into a sub-folder as pi keeps them; the store finds it on its own time, so this waits until it has. */
	@Override
	void storeByHand(String id, String timestamp, @Nullable String parentSession) {
		write(id, timestamp, parentSession);
	}

	private Path write(String id, String timestamp, @Nullable String parentSession) {
		Path file;
		try {
			Path folder = Files.createDirectories(storage.resolve("--work-lineage--"));
			file = Files.writeString(folder.resolve(timestamp.replace(':', '-').replace('.', '-') + "_" + id + ".jsonl"),
					header(id, timestamp, parentSession));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (!this.client.get().uri("/sessions/{id}", id).exchange().returnResult().getStatus().is2xxSuccessful()) {
			assertThat(System.nanoTime()).as("session %s found in the folder within 10 s", id).isLessThan(deadline);
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		return file;
	}

	@Test
	void aParentNamedByThePathOfItsFileShouldBeFoundAsPiWritesIt() {
		String parent = newId();
		Path parentFile = write(parent, "2025-11-20T23:33:01.550Z", null);
		String child = newId();
		write(child, "2025-11-20T23:33:02.550Z", parentFile.toAbsolutePath().toString());
		String grandchild = newId();
		// not normalized, as a path written by hand may be: it still names the file
		write(grandchild, "2025-11-20T23:33:03.550Z",
				storage.toAbsolutePath() + "/--work-lineage--/../--work-lineage--/2025-11-20T23-33-02-550Z_" + child + ".jsonl");

		JsonNode ofGrandchild = lineage(grandchild);
		assertThat(ids(ofGrandchild.get("ancestors"))).containsExactly(child, parent);
		assertThat(ofGrandchild.get("missingParent").isNull()).isTrue();
		JsonNode ofParent = lineage(parent);
		assertThat(ids(ofParent.get("descendants"))).containsExactly(child, grandchild);
		assertThat(ofParent.get("parents").get(grandchild).asString()).isEqualTo(child);
	}

	@Test
	void aPathThatIsNoStoredFileShouldBeAMissingParent() {
		String parent = newId();
		Path parentFile = write(parent, "2025-11-20T23:33:01.550Z", null);
		String relative = newId();
		write(relative, "2025-11-20T23:33:02.550Z", storage.relativize(parentFile).toString());
		String elsewhere = newId();
		String outside = "/home/someone/.pi/agent/sessions/--x--/" + parentFile.getFileName();
		write(elsewhere, "2025-11-20T23:33:03.550Z", outside);

		assertThat(lineage(relative).get("missingParent").asString()).isEqualTo(storage.relativize(parentFile).toString());
		assertThat(lineage(elsewhere).get("missingParent").asString()).isEqualTo(outside);
		assertThat(ids(lineage(parent).get("descendants"))).isEmpty();
	}

}

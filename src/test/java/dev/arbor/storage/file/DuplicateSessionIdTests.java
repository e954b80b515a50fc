package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Two files of one session id: the first (in path order) is served, the second listed as unreadable and logged. */
class DuplicateSessionIdTests {

	@TempDir
	Path dir;

	@Test
	void listWhenTwoFilesShareASessionIdShouldServeTheFirstAndLogTheSecondOnce() throws IOException {
		String header = "{\"type\":\"session\",\"version\":3,\"id\":\"twin\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}\n";
		Files.writeString(this.dir.resolve("a_twin.jsonl"), header);
		Files.createDirectories(this.dir.resolve("later"));
		Files.writeString(this.dir.resolve("later").resolve("b_twin.jsonl"), header);
		// the store's log, read where it is written rather than on the console: which stream the console handler
		// writes to is settled by whichever test logged first in this JVM
		List<String> logged = new CopyOnWriteArrayList<>();
		Handler handler = new Handler() {

			@Override
			public void publish(LogRecord record) {
				logged.add(record.getMessage());
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		Logger log = Logger.getLogger(FileSessionStore.class.getName());
		log.addHandler(handler);
		try (FileSessionStore store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC())) {
			assertThat(store.list()).extracting(info -> info.file().getFileName().toString()).containsExactly("a_twin.jsonl");
			store.list();
			assertThat(store.unreadable()).singleElement().satisfies(file -> {
				assertThat(file.name()).isEqualTo("later/b_twin.jsonl");
				assertThat(file.reason()).isEqualTo("duplicate session id twin (already in a_twin.jsonl)");
			});
		}
		finally {
			log.removeHandler(handler);
		}
		String warning = "Session file later/b_twin.jsonl is not served: duplicate session id twin (already in a_twin.jsonl)";
		assertThat(logged).as("logged once").containsOnlyOnce(warning);
	}

}

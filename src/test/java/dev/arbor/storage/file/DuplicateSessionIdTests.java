package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Two files of one session id: the first (in path order) is served, the second listed as unreadable and logged. */
@ExtendWith(OutputCaptureExtension.class)
class DuplicateSessionIdTests {

	@TempDir
	Path dir;

	@Test
	void listWhenTwoFilesShareASessionIdShouldServeTheFirstAndLogTheSecondOnce(CapturedOutput output)
			throws IOException {
		String header = "{\"type\":\"session\",\"version\":3,\"id\":\"twin\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}\n";
		Files.writeString(this.dir.resolve("a_twin.jsonl"), header);
		Files.createDirectories(this.dir.resolve("later"));
		Files.writeString(this.dir.resolve("later").resolve("b_twin.jsonl"), header);
		try (FileSessionStore store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC())) {
			assertThat(store.list()).extracting(info -> info.file().getFileName().toString()).containsExactly("a_twin.jsonl");
			store.list();
			assertThat(store.unreadable()).singleElement().satisfies(file -> {
				assertThat(file.name()).isEqualTo("later/b_twin.jsonl");
				assertThat(file.reason()).isEqualTo("duplicate session id twin (already in a_twin.jsonl)");
			});
		}
		String warning = "Session file later/b_twin.jsonl is not served: duplicate session id twin (already in a_twin.jsonl)";
		assertThat(output.getAll()).contains(warning);
		assertThat(output.getAll().split(java.util.regex.Pattern.quote(warning), -1)).as("logged once").hasSize(2);
	}

}

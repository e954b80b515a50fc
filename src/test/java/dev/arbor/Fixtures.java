package dev.arbor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * The upstream session files in {@code shared/fixtures} (found by walking up from the working
 * directory, so a clone next to {@code shared/} and a worktree elsewhere both work). Tests copy them
 * into a temp directory and never touch the originals.
 * <p>
 * They are not part of the repository: where no {@code shared/fixtures} lies above the working directory, every
 * method aborts the calling test (skipped, not failed). Tests that only need a realistic session use
 * {@link TestSessions}, which always runs.
 */
public final class Fixtures {

	public static final String OMP_V3 = "omp-v3-large-session.jsonl";

	public static final String PI_V1 = "pi-v1-large-session.jsonl";

	private Fixtures() {
	}

	public static Path directory() {
		Path start = Path.of("").toAbsolutePath();
		Path found = find(start);
		Assumptions.assumeTrue(found != null, () -> "the upstream session files are not here: no "
				+ Path.of("shared", "fixtures") + " directory in " + start + " or above it");
		return found;
	}

	public static Path path(String name) {
		return directory().resolve(name);
	}

	public static byte[] bytes(String name) {
		try {
			return Files.readAllBytes(path(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Copies a fixture into a directory, keeping its name. */
	public static Path copy(String name, Path targetDirectory) {
		try {
			Path target = targetDirectory.resolve(name);
			Files.copy(path(name), target, StandardCopyOption.REPLACE_EXISTING);
			target.toFile().setWritable(true);
			return target;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static @Nullable Path find(Path start) {
		for (Path dir = start; dir != null; dir = dir.getParent()) {
			Path candidate = dir.resolve("shared").resolve("fixtures");
			if (Files.isDirectory(candidate)) {
				return candidate;
			}
		}
		return null;
	}

}

package dev.arbor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The upstream session files in {@code shared/fixtures} (found by walking up from the working
 * directory, so a clone next to {@code shared/} and a worktree elsewhere both work). Tests copy them
 * into a temp directory and never touch the originals.
 */
public final class Fixtures {

	public static final String OMP_V3 = "omp-v3-large-session.jsonl";

	public static final String PI_V1 = "pi-v1-large-session.jsonl";

	private Fixtures() {
	}

	public static Path directory() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			Path candidate = dir.resolve("shared").resolve("fixtures");
			if (Files.isDirectory(candidate)) {
				return candidate;
			}
		}
		throw new IllegalStateException("No shared/fixtures directory above " + Path.of("").toAbsolutePath());
	}

	public static Path path(String name) {
		return directory().resolve(name);
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

}

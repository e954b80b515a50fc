package dev.arbor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The project's own session files, {@code src/test/resources/sessions} (their shapes are in the README there):
 * small, realistic and in the repository, so the tests that use them run on any clone. Tests copy them into a temp
 * directory and never write the originals. For comparisons with the real upstream files, see {@link Fixtures}.
 */
public final class TestSessions {

	/** A version-1 pi file: a header without {@code version}, entries without {@code id} and {@code parentId}. */
	public static final String PI_V1 = "pi-v1-feed-session.jsonl";

	/** A version-3 oh-my-pi file: title slot, branches, compactions, branch summaries, labels and more. */
	public static final String OMP_V3 = "omp-v3-feed-session.jsonl";

	/**
	 * A version-2 pi file: ids and parents (a tree with a branch point), messages of hooks under their old role
	 * {@code hookMessage}, a branch summary, a label and a compaction that names its first kept entry by id.
	 */
	public static final String PI_V2 = "pi-v2-theme-session.jsonl";

	/** The header id of the version-2 file. */
	public static final String PI_V2_SESSION_ID = "9b3e1c44-7a2f-4d08-b6e5-2c71f0a98d13";

	/**
	 * A version-3 file damaged as files get damaged: one malformed line of every kind the reader skips, between
	 * good entries, and a last line torn off mid-write.
	 */
	public static final String DAMAGED = "damaged-session.jsonl";

	/** The header id of the damaged file. */
	public static final String DAMAGED_SESSION_ID = "c4d7e2a9-58b1-4f3c-9e07-6a1d2b8f4e55";

	/** The header id of both feed files: the v3 file is the session the v1 file began, continued under oh-my-pi. */
	public static final String SESSION_ID = "5f0c2a7e-3b9d-4e61-a8c4-91d2e7b30f6a";

	private static final String FOLDER = "/sessions/";

	private TestSessions() {
	}

	public static byte[] bytes(String name) {
		try (InputStream in = TestSessions.class.getResourceAsStream(FOLDER + name)) {
			if (in == null) {
				throw new IllegalArgumentException("No test session " + name + " in src/test/resources" + FOLDER);
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The file's lines without their newlines (every line of the feed files ends with one). */
	public static List<String> lines(String name) {
		String text = new String(bytes(name), StandardCharsets.UTF_8);
		return new ArrayList<>(List.of(text.substring(0, text.length() - 1).split("\n", -1)));
	}

	/** Copies a session file into a directory, keeping its name. */
	public static Path copy(String name, Path targetDirectory) {
		try {
			return Files.write(targetDirectory.resolve(name), bytes(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

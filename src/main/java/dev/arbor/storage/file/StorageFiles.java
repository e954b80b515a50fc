package dev.arbor.storage.file;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

import dev.arbor.session.Ids;
import dev.arbor.session.Timestamps;
import org.jspecify.annotations.Nullable;

/**
 * Names of the files Arbor keeps: session files and what lives next to them. The one place where a
 * session id becomes part of a path, and only after it matched {@link Ids#PATTERN}.
 */
final class StorageFiles {

	static final String SESSION_SUFFIX = ".jsonl";

	/**
	 * The persisted leaf (docs/SESSION-FORMAT.md#the-leaf): not {@code .jsonl}, so the registry never takes it for a
	 * session.
	 */
	static final String LEAF_SUFFIX = ".leaf";

	static final String TEMP_SUFFIX = ".tmp";

	static final String BACKUP_SUFFIX = ".bak";

	private StorageFiles() {
	}

	/** The longest name most file systems take for a folder, in bytes. */
	private static final int MAX_FOLDER_NAME = 255;

	/**
	 * The folder pi keeps a working directory's sessions in, {@code --<cwd>--}: the cwd without its leading slash,
	 * with {@code /}, {@code \} and {@code :} made {@code -} (pi-coding-agent's {@code getDefaultSessionDir});
	 * {@code null} for no cwd, one with a NUL (no path holds it) or one too long
	 * for a name.
	 */
	static @Nullable String cwdFolder(@Nullable String cwd) {
		if (cwd == null || cwd.isEmpty() || cwd.indexOf('\0') >= 0) {
			return null;
		}
		String folder = "--" + cwd.replaceFirst("^[/\\\\]", "").replaceAll("[/\\\\:]", "-") + "--";
		return (folder.getBytes(StandardCharsets.UTF_8).length <= MAX_FOLDER_NAME) ? folder : null;
	}

	/** {@code <timestamp>_<sessionId>.jsonl} in a folder, as upstream names new sessions. */
	static Path newSessionFile(Path folder, String sessionId, Instant now) {
		if (!Ids.isValid(sessionId)) {
			throw new IllegalArgumentException("Invalid session id: " + sessionId);
		}
		String timestamp = Timestamps.format(now).replace(':', '-').replace('.', '-');
		return folder.resolve(timestamp + "_" + sessionId + SESSION_SUFFIX);
	}

	static boolean isSessionFile(Path file) {
		String name = file.getFileName().toString();
		return name.endsWith(SESSION_SUFFIX) && !name.startsWith(".");
	}

	static Path leafSidecar(Path sessionFile) {
		return sibling(sessionFile, LEAF_SUFFIX);
	}

	static Path temp(Path target) {
		return sibling(target, TEMP_SUFFIX);
	}

	/** {@code <file>.<timestamp>.bak}: one per repair, never overwritten. */
	static Path backup(Path sessionFile, Instant now) {
		String timestamp = Timestamps.format(now).replace(':', '-').replace('.', '-');
		return sibling(sessionFile, "." + timestamp + BACKUP_SUFFIX);
	}

	private static Path sibling(Path file, String suffix) {
		return file.resolveSibling(file.getFileName() + suffix);
	}

}

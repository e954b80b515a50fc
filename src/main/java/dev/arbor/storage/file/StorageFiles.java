package dev.arbor.storage.file;

import java.nio.file.Path;
import java.time.Instant;

import dev.arbor.session.Ids;
import dev.arbor.session.Timestamps;

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

	/** {@code <timestamp>_<sessionId>.jsonl} in the root directory, as upstream names new sessions. */
	static Path newSessionFile(Path root, String sessionId, Instant now) {
		if (!Ids.isValid(sessionId)) {
			throw new IllegalArgumentException("Invalid session id: " + sessionId);
		}
		String timestamp = Timestamps.format(now).replace(':', '-').replace('.', '-');
		return root.resolve(timestamp + "_" + sessionId + SESSION_SUFFIX);
	}

	/** Arbor's own folder under the root (the search index, a cache): never walked or watched for sessions. */
	static final String ARBOR_FOLDER = ".arbor";

	static boolean isArborFolder(Path root, Path folder) {
		return folder.equals(root.resolve(ARBOR_FOLDER));
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

package dev.arbor.storage.file;

import java.nio.file.Path;
import java.time.Instant;
import java.util.regex.Pattern;

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

	/** pi's {@code /^[/\\]/}: the one leading separator its folder name drops. */
	private static final Pattern LEADING_SEPARATOR = Pattern.compile("^[/\\\\]");

	/** pi's {@code /[/\\:]/g}: what its folder name makes {@code -}. */
	private static final Pattern REPLACED = Pattern.compile("[/\\\\:]");

	private StorageFiles() {
	}

	/**
	 * The folder pi keeps a working directory's sessions in, {@code --<cwd>--}, by pi-coding-agent's
	 * {@code getDefaultSessionDir} to the letter (docs/STORAGE.md#where-new-sessions-go): the cwd without one leading
	 * {@code /} or {@code \}, each {@code /}, {@code \} and {@code :} made {@code -}. Nothing else is changed, so the
	 * name may be one no file system takes: the store decides whether it can be used. {@code null} for a session
	 * without a cwd (an empty one is what Arbor writes for none).
	 */
	static @Nullable String cwdFolder(@Nullable String cwd) {
		if (cwd == null || cwd.isEmpty()) {
			return null;
		}
		String unrooted = LEADING_SEPARATOR.matcher(cwd).replaceFirst("");
		return "--" + REPLACED.matcher(unrooted).replaceAll("-") + "--";
	}

	/** {@code <timestamp>_<sessionId>.jsonl} in a folder, as upstream names new sessions. */
	static Path newSessionFile(Path folder, String sessionId, Instant now) {
		if (!Ids.isValid(sessionId)) {
			throw new IllegalArgumentException("Invalid session id: " + sessionId);
		}
		String timestamp = Timestamps.format(now).replace(':', '-').replace('.', '-');
		return folder.resolve(timestamp + "_" + sessionId + SESSION_SUFFIX);
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

	/** The session file whose leaf sidecar this is, or {@code null} when it is none. */
	static @Nullable Path sessionOfSidecar(Path file) {
		String name = file.getFileName().toString();
		if (!name.endsWith(LEAF_SUFFIX)) {
			return null;
		}
		Path session = file.resolveSibling(name.substring(0, name.length() - LEAF_SUFFIX.length()));
		return isSessionFile(session) ? session : null;
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

package dev.arbor.storage;

import java.nio.file.Path;

/**
 * A {@code .jsonl} file under the storage directory that is not a usable session: listed with the
 * reason, never modified (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
 *
 * @param file the file
 * @param name the file's path under the storage directory, with {@code /} between names: what a client may be
 * shown (the absolute path would tell it the server's layout)
 * @param reason why it cannot be used
 */
public record UnreadableSession(Path file, String name, String reason) {

	public static UnreadableSession of(Path root, Path file, String reason) {
		String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
		return new UnreadableSession(file, name, reason);
	}

}

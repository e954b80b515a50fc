package dev.arbor.storage;

import java.nio.file.Path;

/**
 * A {@code .jsonl} file under the storage directory that is not a usable session: listed with the
 * reason, never modified (SESSION-TREE.md §3).
 *
 * @param file the file
 * @param reason why it cannot be used
 */
public record UnreadableSession(Path file, String reason) {
}

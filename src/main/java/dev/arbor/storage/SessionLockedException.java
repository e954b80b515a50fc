package dev.arbor.storage;

import java.nio.file.Path;

/**
 * Another process holds the OS lock of a session file, so this one may not write it
 * (docs/SESSION-FORMAT.md#durability-and-concurrency).
 */
public class SessionLockedException extends StorageException {

	public SessionLockedException(Path file) {
		super("Session file is locked by another process: " + file.getFileName(), null);
	}

}

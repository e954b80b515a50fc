package dev.arbor.storage;

import java.nio.file.Path;

/**
 * Another process kept a line of the session's file unfinished for longer than a write may wait: appending after
 * it would glue onto it. Nothing was written; the write can be tried again.
 */
public class SessionBusyException extends StorageException {

	public SessionBusyException(Path file) {
		super("Another process is still writing a line at the end of session file " + file.getFileName(), null);
	}

}

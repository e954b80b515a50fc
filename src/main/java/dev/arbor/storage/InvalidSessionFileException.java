package dev.arbor.storage;

import java.nio.file.Path;

/**
 * A file that is not a session: its first record (after an optional title slot) is not a header
 * with a string id. <b>Arbor:</b> such a file is reported and never modified (upstream overwrites it
 * with a fresh session).
 */
public class InvalidSessionFileException extends RuntimeException {

	private final Path file;

	private final String reason;

	public InvalidSessionFileException(Path file, String reason) {
		super("Not a session file (" + reason + "): " + file.getFileName());
		this.file = file;
		this.reason = reason;
	}

	public Path file() {
		return this.file;
	}

	public String reason() {
		return this.reason;
	}

}

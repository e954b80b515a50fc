package dev.arbor.session;

/**
 * A line that is not one JSON object with the fields an entry needs. Cheap to throw: loading
 * counts these rather than failing (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
 */
public final class MalformedLineException extends Exception {

	public MalformedLineException(String reason) {
		super(reason, null, false, false);
	}

}

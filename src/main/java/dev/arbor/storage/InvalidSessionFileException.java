package dev.arbor.storage;

import java.util.List;

/**
 * Content that is not a session: its first record (after an optional title slot) is not a header with a string
 * id, or (for an upload) it has lines that are not entries. <b>Arbor:</b> such a file is reported and never
 * modified (upstream overwrites it with a fresh session).
 */
public class InvalidSessionFileException extends RuntimeException {

	private final String reason;

	private final List<MalformedLine> malformedLines;

	/**
	 * @param source what was read: a file's name, or what a client uploaded
	 * @param reason why it is not a session
	 */
	public InvalidSessionFileException(String source, String reason) {
		this(source, reason, List.of(), "");
	}

	/**
	 * @param source what was uploaded
	 * @param malformedLines the lines that are not entries, which an upload may skip
	 */
	public InvalidSessionFileException(String source, List<MalformedLine> malformedLines) {
		this(source, MalformedLine.describe(malformedLines), malformedLines,
				". To import it without those lines, send it again with ?skipMalformedLines=true");
	}

	private InvalidSessionFileException(String source, String reason, List<MalformedLine> malformedLines,
			String remedy) {
		super("Not a session file (" + reason + "): " + source + remedy);
		this.reason = reason;
		this.malformedLines = List.copyOf(malformedLines);
	}

	public String reason() {
		return this.reason;
	}

	/** The lines that are not entries, when those are the reason. */
	public List<MalformedLine> malformedLines() {
		return this.malformedLines;
	}

}

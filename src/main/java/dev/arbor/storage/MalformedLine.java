package dev.arbor.storage;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A line skipped on load (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions), reported with where
 * it is.
 *
 * @param lineNumber 1-based line number in the file
 * @param offset byte offset of the line's start
 * @param reason why it was skipped
 */
public record MalformedLine(int lineNumber, long offset, String reason) {

	private static final int DESCRIBED = 3;

	/** A one-line account of skipped lines, naming the first few. */
	public static String describe(List<MalformedLine> lines) {
		String first = lines.stream()
			.limit(DESCRIBED)
			.map(line -> "line " + line.lineNumber() + ": " + line.reason())
			.collect(Collectors.joining("; "));
		return lines.size() + ((lines.size() == 1) ? " malformed line (" : " malformed lines (") + first
				+ ((lines.size() > DESCRIBED) ? "; …)" : ")");
	}

}

package dev.arbor.storage;

/**
 * A line skipped on load (SESSION-TREE.md §3), reported with where it is.
 *
 * @param lineNumber 1-based line number in the file
 * @param offset byte offset of the line's start
 * @param reason why it was skipped
 */
public record MalformedLine(int lineNumber, long offset, String reason) {
}

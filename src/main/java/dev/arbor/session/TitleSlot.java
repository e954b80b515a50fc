package dev.arbor.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fixed-width first line of recent oh-my-pi files (docs/SESSION-FORMAT.md#a-file-line-by-line): 256 bytes including
 * the newline, so the title can be rewritten in place. Kept as stored; Arbor never adds one.
 *
 * @param line the stored line without its newline
 * @param title the slot's title when non-empty (it then overrides the header's)
 */
public record TitleSlot(StoredLine line, @Nullable String title) {

	/** Size of the slot in bytes, newline included. */
	public static final int SIZE = 256;

	/** Reads a title slot record; {@code null} when the record is not one. */
	public static @Nullable TitleSlot parse(ObjectNode record, byte[] line) {
		if (!EntryTypes.TITLE.equals(Json.text(record, "type"))) {
			return null;
		}
		String title = Json.text(record, "title");
		return new TitleSlot(new StoredLine(line), (title == null || title.isEmpty()) ? null : title);
	}

}

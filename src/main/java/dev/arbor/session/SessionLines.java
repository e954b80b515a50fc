package dev.arbor.session;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A session as the lines of a version-3 file: the title slot where the session has one (Arbor never adds one,
 * docs/SESSION-FORMAT.md#a-file-line-by-line), the header, then every entry in file order, each exactly as stored. What
 * storage writes on a rewrite and what an export sends, so the two never differ.
 *
 * @param titleSlot the title slot, where the session has one
 * @param header the header
 * @param entries the entries in file order
 */
public record SessionLines(@Nullable TitleSlot titleSlot, SessionHeader header, List<EntryLine> entries) {

	public SessionLines {
		entries = List.copyOf(entries);
	}

	/** The session as it stands; a copy, so it may be written after the caller lets go of the tree. */
	public static SessionLines of(SessionTree tree) {
		return new SessionLines(tree.titleSlot(), tree.header(), tree.getEntries());
	}

	/** Writes every line, each followed by a newline; buffering is the caller's. */
	public void writeTo(OutputStream out) throws IOException {
		if (this.titleSlot != null) {
			out.write(this.titleSlot.line().bytes());
			out.write('\n');
		}
		out.write(this.header.json().bytes());
		out.write('\n');
		for (EntryLine entry : this.entries) {
			entry.writeTo(out);
			out.write('\n');
		}
	}

}

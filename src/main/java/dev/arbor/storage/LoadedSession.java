package dev.arbor.storage;

import java.util.List;

import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionTree;

/**
 * A session file as read: the tree (migrated to version 3 in memory) and what the file itself looked
 * like, which decides how the next write must go.
 *
 * @param tree the session
 * @param fileVersion the version stored in the file's header
 * @param malformedLines lines skipped on load
 * @param fileLength the file's length when read
 * @param endsWithNewline whether the last byte is a newline (an append must not glue onto a line)
 * @param pendingTail the bytes of a last line without its newline that were held back as someone's write in
 * progress (not scanned, not counted); 0 when none was
 * @param lineCount the lines taken in, the title slot and the header included (not a held tail)
 */
public record LoadedSession(SessionTree tree, int fileVersion, List<MalformedLine> malformedLines, long fileLength,
		boolean endsWithNewline, long pendingTail, int lineCount) {

	/**
	 * A migrated file or one with skipped lines is rewritten whole on its next write
	 * (docs/SESSION-FORMAT.md#versions-and-migrations,
	 * docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
	 */
	public boolean needsRewrite() {
		return this.fileVersion < SessionHeader.CURRENT_VERSION || !this.malformedLines.isEmpty();
	}

	/** Skipped lines are user data: their bytes are kept in a backup before the rewrite drops them. */
	public boolean needsBackup() {
		return !this.malformedLines.isEmpty();
	}

	/** Where the lines taken in end: the held tail, if any, starts here. */
	public long consumedLength() {
		return this.fileLength - this.pendingTail;
	}

}

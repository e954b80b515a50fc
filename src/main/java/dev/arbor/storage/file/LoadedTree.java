package dev.arbor.storage.file;

import java.io.ByteArrayOutputStream;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionTree;
import dev.arbor.session.TitleSlot;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.MalformedLine;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionFileReader.AppendedLines;

/**
 * A loaded session's tree and where it stands against its file: how far the file has been taken in, what was seen
 * of it last, and how the next write must go (whole, after a migration or repair). Guarded by the owning
 * {@link StoredSession}'s lock.
 */
final class LoadedTree {

	private static final System.Logger LOGGER = System.getLogger(LoadedTree.class.getName());

	final SessionTree tree;

	/**
	 * The header's version in the file: below 3, the file is rewritten whole on its next write
	 * (docs/SESSION-FORMAT.md#versions-and-migrations).
	 */
	int fileVersion;

	/**
	 * Complete lines that are not entries: the next write repairs the file, keeping a backup
	 * (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
	 */
	int malformedLines;

	/** Where the lines taken in end; bytes beyond are a line still being written, or a crash remnant. */
	long consumed;

	/** The lines taken in, title slot and header included: for the line numbers of reports. */
	int lineCount;

	/**
	 * Whether the bytes taken in end with a newline. They do not after a last line without one was taken in as an
	 * entry (it stayed so past the grace period, or the file was old already): the next write rewrites the file.
	 */
	boolean endsWithNewline;

	/** The file as last looked at; read without the lock by the store's watch, to skip files that did not change. */
	volatile FileStamp seen;

	/**
	 * Whether the bytes beyond {@link #consumed} stayed unfinished past the grace period: a crash remnant
	 * (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
	 */
	boolean remnant;

	/**
	 * Whether another process was seen writing the file since it was loaded: appends then look once more, right
	 * before writing, whether it wrote meanwhile.
	 */
	boolean shared;

	LoadedTree(LoadedSession session, FileStamp seen) {
		this.tree = session.tree();
		this.fileVersion = session.fileVersion();
		this.malformedLines = session.malformedLines().size();
		this.consumed = session.consumedLength();
		this.lineCount = session.lineCount();
		this.endsWithNewline = session.pendingTail() > 0 || session.endsWithNewline() || session.fileLength() == 0;
		this.seen = seen;
	}

	/**
	 * Takes in complete lines that another process appended where the lines taken in end: their entries join the
	 * tree (the leaf moves to the last), the others count as malformed (the next write repairs the file,
	 * docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
	 *
	 * @param lines complete lines, from {@link #consumed} on
	 * @param fileName for the log
	 * @return the entries taken in, in file order
	 */
	List<EntryLine> takeIn(FileLines lines, String fileName) {
		if (lines.count() == 0) {
			return List.of();
		}
		AppendedLines appended = SessionFileReader.readAppended(lines);
		if (!appended.malformed().isEmpty()) {
			LOGGER.log(System.Logger.Level.WARNING, "Another process appended to " + fileName + " "
					+ MalformedLine.describe(appended.malformed()) + "; the next write repairs the file, keeping a backup");
		}
		this.tree.append(appended.entries());
		this.malformedLines += appended.malformed().size();
		this.consumed = lines.length();
		this.lineCount += lines.count();
		this.endsWithNewline = true;
		return appended.entries();
	}

	/**
	 * A migrated or damaged file is rewritten whole on its next write (docs/SESSION-FORMAT.md#versions-and-migrations,
	 * docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions), and so is one whose last line has no
	 * newline: appending after it would glue onto it.
	 */
	boolean needsRewrite() {
		return this.fileVersion < SessionHeader.CURRENT_VERSION || this.malformedLines > 0 || this.remnant
				|| !this.endsWithNewline;
	}

	/** Skipped lines and a crash remnant are user data: their bytes are kept in a backup before a rewrite. */
	boolean needsBackup() {
		return this.malformedLines > 0 || this.remnant;
	}

	/** Whether someone's line is being written at the end of the file: nothing may be appended after it yet. */
	boolean hasPendingTail() {
		return this.seen.size() > this.consumed && !this.remnant;
	}

	/** Lines reported as malformed: a crash remnant counts as one. */
	int reportedMalformedLines() {
		return this.malformedLines + (this.remnant ? 1 : 0);
	}

	/** About the memory the session takes: its stored lines are most of it, then what its selector views keep. */
	long bytes() {
		return this.consumed + this.tree.keptViewBytes();
	}

	/**
	 * How the file starts: the title slot and the header. The same length with a newer time and another start is a
	 * rewrite in place (oh-my-pi rewrites its title slot so).
	 */
	byte[] prefix() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		TitleSlot slot = this.tree.titleSlot();
		if (slot != null) {
			out.writeBytes(slot.line().bytes());
			out.write('\n');
		}
		out.writeBytes(this.tree.header().json().bytes());
		out.write('\n');
		return out.toByteArray();
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionFileReader.AppendedLines;
import org.jspecify.annotations.Nullable;

/**
 * Takes in what other processes did to a loaded session's file since it was last looked at. The agents append whole
 * lines without a lock, so complete lines past what was taken in become entries, validated as on load, and the
 * leaf moves to the last of them as a load would put it (docs/SESSION-FORMAT.md#the-leaf and
 * docs/SESSION-FORMAT.md#durability-and-concurrency). A last line without its newline is someone's write in progress:
 * held back, neither entry nor damage, until it is finished or stays unfinished past the grace period (then it is a
 * crash remnant, docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions). A file that shrank, was
 * replaced by another (a rename over it) or got another start at the same length (a rewrite in place) must be read
 * again whole.
 */
final class FileTail {

	private static final System.Logger LOGGER = System.getLogger(FileTail.class.getName());

	private FileTail() {
	}

	/**
	 * Brings the tree up to date with the file. Under the session's write lock.
	 *
	 * @param now the file as it is now
	 * @param reads the file's bytes
	 * @param graceMillis how long an unfinished last line is someone's write in progress
	 * @param nowMillis the wall clock, which file times are in
	 */
	static CatchUp catchUp(LoadedTree loaded, FileStamp now, Reads reads, long graceMillis, long nowMillis)
			throws IOException {
		if (!now.sameFile(loaded.seen) || now.size() < loaded.consumed
				|| loaded.fileVersion < SessionHeader.CURRENT_VERSION && !now.unchanged(loaded.seen)) {
			return CatchUp.REPLACED; // older versions are migrated by position: read again whole, never in part
		}
		boolean overdue = now.quietMillis(nowMillis) > graceMillis;
		if (now.unchanged(loaded.seen) && !(loaded.hasPendingTail() && overdue)) {
			return CatchUp.NOTHING;
		}
		if (now.size() == loaded.consumed) {
			loaded.seen = now;
			loaded.remnant = false;
			// The same length at a newer time: an append would have grown it, so this is a rewrite in place.
			return reads.holds(0, loaded.prefix()) ? CatchUp.NOTHING : CatchUp.REPLACED;
		}
		FileLines lines = reads.readFrom(loaded.consumed, loaded.lineCount + 1);
		int complete = lines.endsWithNewline() ? lines.count() : lines.count() - 1;
		String oldLeafId = loaded.tree.leafId();
		List<EntryLine> entries = new ArrayList<>(loaded.takeIn(lines.slice(0, complete), reads.name()));
		loaded.remnant = false;
		if (complete < lines.count() && overdue) {
			entries.addAll(takeOverdueTail(loaded, lines, complete));
		}
		// What was read may reach past the stamp (the file grew meanwhile): its time is then older than the file's.
		loaded.seen = new FileStamp(lines.length(), now.modified(), now.fileKey());
		return entries.isEmpty() ? CatchUp.NOTHING : new CatchUp(entries, oldLeafId, false);
	}

	/**
	 * A last line that stayed without its newline past the grace period: an entry when it is one (a writer that
	 * never ends its last line), else a crash remnant, which the next write repairs with a backup
	 * (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
	 */
	private static List<EntryLine> takeOverdueTail(LoadedTree loaded, FileLines lines, int complete) {
		AppendedLines last = SessionFileReader.readAppended(lines.slice(complete, complete + 1));
		if (last.entries().isEmpty()) {
			loaded.remnant = true;
			return List.of();
		}
		loaded.tree.append(last.entries());
		loaded.consumed = lines.length();
		loaded.lineCount++;
		loaded.endsWithNewline = false;
		return last.entries();
	}

	/** The bytes of a session file, for catching up. */
	interface Reads {

		/** The file's name, for the logs. */
		String name();

		/** The lines from a position to the end of the file. */
		FileLines readFrom(long from, int firstLine) throws IOException;

		/** Whether the file holds these bytes at this position. */
		boolean holds(long position, byte[] expected) throws IOException;

	}

	/**
	 * What catching up found.
	 *
	 * @param entries the entries taken in, in file order
	 * @param oldLeafId the leaf before them
	 * @param replaced whether the file must be read again whole instead
	 */
	record CatchUp(List<EntryLine> entries, @Nullable String oldLeafId, boolean replaced) {

		static final CatchUp NOTHING = new CatchUp(List.of(), null, false);

		static final CatchUp REPLACED = new CatchUp(List.of(), null, true);

	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.FileLines;
import org.jspecify.annotations.Nullable;

/**
 * Where an append landed when it is not where the file ended just before: another process wrote in the moment
 * between the check and the write, and append mode put Arbor's lines after theirs. The tree keeps file order: their
 * complete lines before Arbor's are taken in first, those after Arbor's last. When Arbor's first line landed on an
 * unfinished line of theirs (glued to it), the write is taken back, if nothing followed it yet, to be made again
 * once their line is finished.
 */
final class AppendLanding {

	private static final System.Logger LOGGER = System.getLogger(AppendLanding.class.getName());

	private AppendLanding() {
	}

	/**
	 * Finds the lines just written in what the file holds from where it ended before. Under the session's write
	 * lock.
	 *
	 * @return where the lines are, or {@code null} when they landed on another process's unfinished line and were
	 * taken back
	 * @throws IOException when they cannot be found whole, or landed on an unfinished line and others appended after
	 * them (the file then holds a damaged line: the next write repairs it, keeping a backup)
	 */
	static @Nullable Landed find(SessionFile file, LoadedTree loaded, List<EntryLine> lines, long start)
			throws IOException {
		FileLines region = file.reads().readFrom(start, loaded.lineCount + 1);
		byte[] first = lines.get(0).bytes();
		for (int i = 0; i < region.count(); i++) {
			byte[] line = region.line(i);
			if (Arrays.equals(line, first)) {
				requireWhole(region, i, lines, file);
				return new Landed(region, i, lines.size());
			}
			if (line.length > first.length && endsWith(line, first)) {
				long ours = region.offset(i) + line.length - first.length;
				long end = ours + SessionContent.length(lines);
				if (file.truncateIfEndsAt(end, ours)) {
					return null;
				}
				throw new IOException("The appended lines landed on another process's unfinished line in "
						+ file.reads().name() + " at offset " + ours + ", and more was appended after them");
			}
		}
		throw new IOException("The appended lines are not where they were written in " + file.reads().name());
	}

	/**
	 * Takes in the complete lines of others before the appended ones.
	 *
	 * @return their entries
	 */
	static List<EntryLine> takeBefore(LoadedTree loaded, Landed landed, String fileName) {
		return loaded.takeIn(landed.region.slice(0, landed.index), fileName);
	}

	/**
	 * Takes in the appended lines' place in the file (the tree took the entries themselves), then the complete lines
	 * of others after them.
	 *
	 * @return the entries of others taken in
	 */
	static List<EntryLine> takeAfter(LoadedTree loaded, Landed landed, String fileName) {
		FileLines region = landed.region;
		int afterOurs = landed.index + landed.count;
		loaded.consumed = (afterOurs < region.count()) ? region.offset(afterOurs) : region.length();
		loaded.lineCount += landed.count;
		int complete = region.endsWithNewline() ? region.count() : region.count() - 1;
		List<EntryLine> after = loaded.takeIn(region.slice(afterOurs, complete), fileName);
		loaded.seen = new FileStamp(region.length(), loaded.seen.modified(), loaded.seen.fileKey());
		return after;
	}

	private static void requireWhole(FileLines region, int index, List<EntryLine> lines, SessionFile file)
			throws IOException {
		for (int j = 0; j < lines.size(); j++) {
			if (index + j >= region.count() || !Arrays.equals(region.line(index + j), lines.get(j).bytes())
					|| (index + j == region.count() - 1 && !region.endsWithNewline())) {
				throw new IOException(
						"The appended lines are not whole where they were written in " + file.reads().name());
			}
		}
	}

	private static boolean endsWith(byte[] line, byte[] suffix) {
		return Arrays.equals(line, line.length - suffix.length, line.length, suffix, 0, suffix.length);
	}

	/**
	 * Where appended lines were found.
	 *
	 * @param region the file from where it ended before the write
	 * @param index the appended lines' first index in the region
	 * @param count how many lines were appended
	 */
	record Landed(FileLines region, int index, int count) {

		long end() {
			int afterOurs = this.index + this.count;
			return (afterOurs < this.region.count()) ? this.region.offset(afterOurs) : this.region.length();
		}

	}

}

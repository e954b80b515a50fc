package dev.arbor.storage;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryScan;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import dev.arbor.session.MalformedLineException;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionTree;
import dev.arbor.session.TitleSlot;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Opens a session file (docs/SESSION-FORMAT.md#reading-a-file): title slot, header, entries, migrations. Accounts for
 * every byte: blank lines are skipped, anything else that is not an entry is reported as a
 * {@link MalformedLine} with its line number and offset. Never writes.
 * <p>
 * Lines are scanned in parallel, in ranges of consecutive lines, then merged in file order: the per-line cost is a
 * validating scan, and a large session has hundreds of thousands of lines. The entries keep the chunks the lines were
 * read into (see {@link FileLines}).
 */
public final class SessionFileReader {

	/** Fewer lines than this are scanned on the caller's thread alone; ranges hold at least this many. */
	private static final int PARALLEL_FROM = 2_000;

	/** A few ranges per core: a range with long lines does not leave the other cores idle at the end. */
	private static final int MAX_RANGES = 4 * Runtime.getRuntime().availableProcessors();

	private SessionFileReader() {
	}

	public static LoadedSession read(Path file) throws IOException {
		return read(FileLines.read(file), file.getFileName().toString());
	}

	/**
	 * @param lines the content
	 * @param source what the content is, for errors: a file's name, or an upload
	 */
	public static LoadedSession read(FileLines lines, String source) {
		return read(lines, source, false);
	}

	/**
	 * @param lines the content
	 * @param source what the content is, for errors: a file's name, or an upload
	 * @param holdTornTail whether a last line without its newline is someone's write in progress: left out and
	 * reported as {@link LoadedSession#pendingTail()}, not scanned (else it is scanned like any line, and reported
	 * as malformed when it is not an entry)
	 */
	public static LoadedSession read(FileLines lines, String source, boolean holdTornTail) {
		int count = lines.count();
		long pendingTail = 0;
		if (holdTornTail && !lines.endsWithNewline() && count > 0) {
			count--;
			pendingTail = lines.length() - lines.offset(count);
		}
		int next = 0;
		TitleSlot titleSlot = null;
		if (count > 0) {
			ObjectNode first = parseOrNull(lines.line(0));
			titleSlot = (first != null) ? TitleSlot.parse(first, lines.line(0)) : null;
			next = (titleSlot != null) ? 1 : 0;
		}
		while (next < count && lines.isBlank(next)) {
			next++;
		}
		if (next >= count) {
			throw new InvalidSessionFileException(source, "no session header");
		}
		ObjectNode headerRecord = parseOrNull(lines.line(next));
		SessionHeader header = (headerRecord != null) ? SessionHeader.parse(headerRecord) : null;
		if (header == null) {
			throw new InvalidSessionFileException(source,
					"line " + (next + 1) + " is not a session header with a string id");
		}
		boolean current = header.version() >= SessionHeader.CURRENT_VERSION;
		Scanned scanned = scan(lines, next + 1, count, header.version() >= 2, current);
		List<EntryLine> entries = current ? scanned.entries()
				: Migrations.toCurrentVersion(header.id(), header.version(), scanned.records());
		SessionTree tree = SessionTree.of(header.atCurrentVersion(), titleSlot, entries);
		return new LoadedSession(tree, header.version(), scanned.malformed(), lines.length(), lines.endsWithNewline(),
				pendingTail, count);
	}

	/**
	 * The entries of lines appended to a version-3 file after it was read: each complete line scanned as on load.
	 *
	 * @param lines complete lines only (a torn tail is the caller's to hold back or to include)
	 */
	public static AppendedLines readAppended(FileLines lines) {
		Scanned scanned = scan(lines, 0, lines.count(), true, true);
		return new AppendedLines(scanned.entries(), scanned.malformed());
	}

	/**
	 * Entries read from lines appended to a session file.
	 *
	 * @param entries in file order
	 * @param malformed the lines that are not entries
	 */
	public record AppendedLines(List<EntryLine> entries, List<MalformedLine> malformed) {
	}

	/**
	 * Scans lines {@code from} to {@code to}, in parallel ranges when there are many.
	 *
	 * @param asEntries whether the lines become entries as they are (version 3), rather than records to migrate
	 */
	private static Scanned scan(FileLines lines, int from, int to, boolean idsRequired, boolean asEntries) {
		int count = to - from;
		Object[] results = new Object[count];
		int ranges = (count > PARALLEL_FROM) ? Math.min(count / PARALLEL_FROM, MAX_RANGES) : 1;
		IntStream parts = IntStream.range(0, ranges);
		(ranges > 1 ? parts.parallel() : parts).forEach(range -> scanRange(lines, from, results,
				(int) ((long) count * range / ranges), (int) ((long) count * (range + 1) / ranges), idsRequired,
				asEntries));
		List<EntryLine> entries = new ArrayList<>(asEntries ? count : 0);
		List<EntryScan> records = new ArrayList<>(asEntries ? 0 : count);
		List<MalformedLine> malformed = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			Object result = results[i];
			if (result instanceof EntryLine entry) {
				entries.add(entry);
			}
			else if (result instanceof EntryScan record) {
				records.add(record);
			}
			else if (result instanceof String reason) {
				malformed.add(new MalformedLine(lines.lineNumber(from + i), lines.offset(from + i), reason));
			}
		}
		return new Scanned(entries, records, malformed);
	}

	/**
	 * Scans one range of lines into {@code results}: an {@link EntryLine} (or an {@link EntryScan} to migrate), the
	 * reason a line is malformed, or {@code null} for a blank line. Entries whose parent id is kept as text share the
	 * parent's id string within the range: one copy per id, not two (ids of 8 hex digits are numbers already).
	 */
	private static void scanRange(FileLines lines, int from, Object[] results, int start, int end, boolean idsRequired,
			boolean asEntries) {
		Map<String, String> textIds = new HashMap<>();
		for (int i = start; i < end; i++) {
			Object result = scanLine(lines, from + i, idsRequired);
			if (asEntries && result instanceof EntryScan record) {
				String parentId = record.textParentId();
				if (parentId != null) {
					parentId = textIds.getOrDefault(parentId, parentId);
				}
				if (record.textId() != null) {
					textIds.putIfAbsent(record.textId(), record.textId());
				}
				result = record.toLine(parentId);
			}
			results[i] = result;
		}
	}

	/** An {@link EntryScan}, the reason the line is malformed, or {@code null} for a blank line. */
	private static @Nullable Object scanLine(FileLines lines, int line, boolean idsRequired) {
		if (lines.isBlank(line)) {
			return null;
		}
		boolean torn = line == lines.count() - 1 && !lines.endsWithNewline();
		try {
			EntryScan scan = lines.scan(line);
			if (EntryTypes.SESSION.equals(scan.type())) {
				return "a second session header";
			}
			if (idsRequired && !scan.hasId()) {
				return "no string \"id\" field";
			}
			return scan;
		}
		catch (MalformedLineException ex) {
			return torn ? "torn last line (no newline): " + ex.getMessage() : ex.getMessage();
		}
	}

	private static @Nullable ObjectNode parseOrNull(byte[] line) {
		try {
			return Json.parseObject(line);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/**
	 * Scanned lines.
	 *
	 * @param entries the entries, when the lines became entries as they are
	 * @param records the lines to migrate, otherwise
	 * @param malformed the lines that are not entries
	 */
	private record Scanned(List<EntryLine> entries, List<EntryScan> records, List<MalformedLine> malformed) {
	}

}

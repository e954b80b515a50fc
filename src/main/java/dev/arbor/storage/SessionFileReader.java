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
import dev.arbor.session.HexIds;
import dev.arbor.session.Json;
import dev.arbor.session.MalformedLineException;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionTree;
import dev.arbor.session.TitleSlot;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Opens a session file (docs/SESSION-FORMAT.md §2): title slot, header, entries, migrations. Accounts for
 * every byte: blank lines are skipped, anything else that is not an entry is reported as a
 * {@link MalformedLine} with its line number and offset. Never writes.
 * <p>
 * Lines are scanned in parallel: the per-line cost is a streaming parse, and a large session has
 * hundreds of thousands of them.
 */
public final class SessionFileReader {

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
			pendingTail = lines.length() - lines.offsets()[count];
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
		Scanned scanned = scan(lines, next + 1, count, header.version() >= 2);
		List<EntryLine> entries = (header.version() >= SessionHeader.CURRENT_VERSION)
				? withSharedParentIds(scanned.records())
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
		Scanned scanned = scan(lines, 0, lines.count(), true);
		List<EntryLine> entries = new ArrayList<>(scanned.records().size());
		for (EntryScan record : scanned.records()) {
			entries.add(record.toLine(record.id(), record.parentId()));
		}
		return new AppendedLines(entries, scanned.malformed());
	}

	/**
	 * Entries read from lines appended to a session file.
	 *
	 * @param entries in file order
	 * @param malformed the lines that are not entries
	 */
	public record AppendedLines(List<EntryLine> entries, List<MalformedLine> malformed) {
	}

	private static Scanned scan(FileLines lines, int from, int to, boolean idsRequired) {
		int count = to - from;
		Object[] results = new Object[count];
		IntStream range = IntStream.range(0, count);
		(count > 2_000 ? range.parallel() : range).forEach(i -> results[i] = scanLine(lines, from + i, idsRequired));
		List<EntryScan> records = new ArrayList<>(count);
		List<MalformedLine> malformed = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			if (results[i] instanceof EntryScan record) {
				records.add(record);
			}
			else if (results[i] instanceof String reason) {
				malformed.add(new MalformedLine(lines.lineNumber(from + i), lines.offsets()[from + i], reason));
			}
		}
		return new Scanned(records, malformed);
	}

	/** An {@link EntryScan}, the reason the line is malformed, or {@code null} for a blank line. */
	private static @Nullable Object scanLine(FileLines lines, int line, boolean idsRequired) {
		if (lines.isBlank(line)) {
			return null;
		}
		boolean torn = line == lines.count() - 1 && !lines.endsWithNewline();
		try {
			EntryScan scan = EntryScan.of(lines.line(line));
			if (EntryTypes.SESSION.equals(scan.type())) {
				return "a second session header";
			}
			if (idsRequired && scan.id() == null) {
				return "no string \"id\" field";
			}
			return scan;
		}
		catch (MalformedLineException ex) {
			return torn ? "torn last line (no newline): " + ex.getMessage() : ex.getMessage();
		}
	}

	/**
	 * Entries whose parent id is kept as text share the parent's id string: one copy per id, not two.
	 * Ids of 8 hex digits need nothing: entries hold those as numbers.
	 */
	private static List<EntryLine> withSharedParentIds(List<EntryScan> records) {
		Map<String, String> textIds = new HashMap<>();
		List<EntryLine> entries = new ArrayList<>(records.size());
		for (EntryScan record : records) {
			String id = record.id();
			String parentId = record.parentId();
			if (parentId != null && !HexIds.isHex(parentId)) {
				parentId = textIds.getOrDefault(parentId, parentId);
			}
			if (!HexIds.isHex(id)) {
				textIds.putIfAbsent(id, id);
			}
			entries.add(record.toLine(id, parentId));
		}
		return entries;
	}

	private static @Nullable ObjectNode parseOrNull(byte[] line) {
		try {
			return Json.parseObject(line);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private record Scanned(List<EntryScan> records, List<MalformedLine> malformed) {
	}

}

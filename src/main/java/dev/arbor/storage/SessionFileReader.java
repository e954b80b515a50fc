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
 * Opens a session file (SESSION-TREE.md §3): title slot, header, entries, migrations. Accounts for
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
		int next = 0;
		TitleSlot titleSlot = null;
		if (lines.count() > 0) {
			ObjectNode first = parseOrNull(lines.line(0));
			titleSlot = (first != null) ? TitleSlot.parse(first, lines.line(0)) : null;
			next = (titleSlot != null) ? 1 : 0;
		}
		while (next < lines.count() && lines.isBlank(next)) {
			next++;
		}
		if (next >= lines.count()) {
			throw new InvalidSessionFileException(source, "no session header");
		}
		ObjectNode headerRecord = parseOrNull(lines.line(next));
		SessionHeader header = (headerRecord != null) ? SessionHeader.parse(headerRecord) : null;
		if (header == null) {
			throw new InvalidSessionFileException(source,
					"line " + (next + 1) + " is not a session header with a string id");
		}
		Scanned scanned = scan(lines, next + 1, header.version() >= 2);
		List<EntryLine> entries = (header.version() >= SessionHeader.CURRENT_VERSION)
				? withSharedParentIds(scanned.records())
				: Migrations.toCurrentVersion(header.id(), header.version(), scanned.records());
		SessionTree tree = SessionTree.of(header.atCurrentVersion(), titleSlot, entries);
		return new LoadedSession(tree, header.version(), scanned.malformed(), lines.length(), lines.endsWithNewline());
	}

	private static Scanned scan(FileLines lines, int from, boolean idsRequired) {
		int count = lines.count() - from;
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
				malformed.add(new MalformedLine(from + i + 1, lines.offsets()[from + i], reason));
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

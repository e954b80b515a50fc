package dev.arbor.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * Opens a session file (SESSION-TREE.md §3): title slot, header, entries, migrations. Accounts for
 * every byte: blank lines are skipped, anything else that is not an entry is reported as a
 * {@link MalformedLine} with its line number and offset. Never writes.
 * <p>
 * Lines are scanned in parallel: the per-line cost is a streaming parse, and a large session has
 * hundreds of thousands of them.
 */
final class SessionFileReader {

	private SessionFileReader() {
	}

	static LoadedSession read(Path file) throws IOException {
		byte[] bytes = Files.readAllBytes(file);
		Lines lines = Lines.split(bytes);
		int next = 0;
		TitleSlot titleSlot = null;
		if (lines.count() > 0) {
			ObjectNode first = parseOrNull(lines.copy(bytes, 0));
			titleSlot = (first != null) ? TitleSlot.parse(first, lines.copy(bytes, 0)) : null;
			next = (titleSlot != null) ? 1 : 0;
		}
		while (next < lines.count() && lines.isBlank(bytes, next)) {
			next++;
		}
		if (next >= lines.count()) {
			throw new InvalidSessionFileException(file, "no session header");
		}
		ObjectNode headerRecord = parseOrNull(lines.copy(bytes, next));
		SessionHeader header = (headerRecord != null) ? SessionHeader.parse(headerRecord) : null;
		if (header == null) {
			throw new InvalidSessionFileException(file,
					"line " + (next + 1) + " is not a session header with a string id");
		}
		Scanned scanned = scan(bytes, lines, next + 1, header.version() >= 2);
		List<EntryLine> entries = (header.version() >= SessionHeader.CURRENT_VERSION)
				? withSharedParentIds(scanned.records())
				: Migrations.toCurrentVersion(header.id(), header.version(), scanned.records());
		SessionTree tree = SessionTree.of(header.atCurrentVersion(), titleSlot, entries);
		boolean endsWithNewline = bytes.length > 0 && bytes[bytes.length - 1] == '\n';
		return new LoadedSession(tree, header.version(), scanned.malformed(), bytes.length, endsWithNewline);
	}

	private static Scanned scan(byte[] bytes, Lines lines, int from, boolean idsRequired) {
		int count = lines.count() - from;
		Object[] results = new Object[count];
		IntStream range = IntStream.range(0, count);
		(count > 2_000 ? range.parallel() : range).forEach(i -> results[i] = scanLine(bytes, lines, from + i, idsRequired));
		List<EntryScan> records = new ArrayList<>(count);
		List<MalformedLine> malformed = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			if (results[i] instanceof EntryScan record) {
				records.add(record);
			}
			else if (results[i] instanceof String reason) {
				malformed.add(new MalformedLine(from + i + 1, lines.start(from + i), reason));
			}
		}
		return new Scanned(records, malformed);
	}

	/** An {@link EntryScan}, the reason the line is malformed, or {@code null} for a blank line. */
	private static @Nullable Object scanLine(byte[] bytes, Lines lines, int line, boolean idsRequired) {
		if (lines.isBlank(bytes, line)) {
			return null;
		}
		boolean torn = line == lines.count() - 1 && !lines.endsWithNewline(bytes);
		try {
			EntryScan scan = EntryScan.of(bytes, lines.start(line), lines.length(line));
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

	/** Entries whose parent is loaded share its id string: one copy per id, not two. */
	private static List<EntryLine> withSharedParentIds(List<EntryScan> records) {
		Map<String, String> ids = new HashMap<>(records.size() * 2);
		List<EntryLine> entries = new ArrayList<>(records.size());
		for (EntryScan record : records) {
			String id = record.id();
			String parentId = record.parentId();
			if (parentId != null) {
				parentId = ids.getOrDefault(parentId, parentId);
			}
			ids.putIfAbsent(id, id);
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

	/** Line boundaries of a file: line {@code i} is {@code [start(i), start(i) + length(i))}, newline excluded. */
	private record Lines(int[] starts, int[] ends) {

		static Lines split(byte[] bytes) {
			int[] starts = new int[1024];
			int[] ends = new int[1024];
			int count = 0;
			int start = 0;
			while (start < bytes.length) {
				int end = start;
				while (end < bytes.length && bytes[end] != '\n') {
					end++;
				}
				if (count == starts.length) {
					starts = Arrays.copyOf(starts, count * 2);
					ends = Arrays.copyOf(ends, count * 2);
				}
				starts[count] = start;
				ends[count] = end;
				count++;
				start = end + 1;
			}
			return new Lines(Arrays.copyOf(starts, count), Arrays.copyOf(ends, count));
		}

		int count() {
			return this.starts.length;
		}

		int start(int line) {
			return this.starts[line];
		}

		int length(int line) {
			return this.ends[line] - this.starts[line];
		}

		byte[] copy(byte[] bytes, int line) {
			return Arrays.copyOfRange(bytes, this.starts[line], this.ends[line]);
		}

		boolean isBlank(byte[] bytes, int line) {
			for (int i = this.starts[line]; i < this.ends[line]; i++) {
				byte b = bytes[i];
				if (b != ' ' && b != '\t' && b != '\r') {
					return false;
				}
			}
			return true;
		}

		boolean endsWithNewline(byte[] bytes) {
			return bytes.length > 0 && bytes[bytes.length - 1] == '\n';
		}

	}

}

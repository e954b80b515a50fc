package dev.arbor.copy;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import dev.arbor.copy.CopyOutcome.Result;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.UnreadableSession;
import org.jspecify.annotations.Nullable;

/**
 * Copies every session of one store into another. A session the target lacks is imported from the source's export
 * under its own id, then given the source's leaf; one the target has is compared and left alone, whatever it holds.
 * So a second run copies nothing, and a session that someone changed in the target is never overwritten. The source
 * is only read.
 * <p>
 * Each copy is checked: the target's export and leaf must then equal the source's, byte for byte.
 */
final class StoreCopy {

	private final SessionStore source;

	private final SessionStore target;

	private final boolean skipMalformedLines;

	/**
	 * @param skipMalformedLines whether a session with malformed lines in the source is copied without them; if not,
	 * it fails, since its export leaves them out
	 */
	StoreCopy(SessionStore source, SessionStore target, boolean skipMalformedLines) {
		this.source = source;
		this.target = target;
		this.skipMalformedLines = skipMalformedLines;
	}

	/** Copies every session of the source in id order, then reports its unreadable files; each outcome as it comes. */
	void run(Consumer<CopyOutcome> report) {
		List<SessionInfo> sessions = this.source.list(); // the file store looks at its folder again: unreadable() is now
		sessions.stream().sorted(Comparator.comparing(SessionInfo::id)).map(this::copy).forEach(report);
		for (UnreadableSession file : this.source.unreadable()) {
			report.accept(new CopyOutcome(Result.UNREADABLE, file.name(), file.reason()));
		}
	}

	private CopyOutcome copy(SessionInfo session) {
		String id = session.id();
		try {
			ExportedSession exported = ExportedSession.of(this.source, id);
			int malformedLines = this.source.get(id).malformedLines(); // known once read
			if (malformedLines > 0 && !this.skipMalformedLines) {
				return new CopyOutcome(Result.FAILED, id, count(malformedLines, "malformed line")
						+ " in the source would be left out (--skip-malformed-lines copies without them)");
			}
			ExportedSession existing = ExportedSession.find(this.target, id);
			if (existing != null) {
				String difference = existing.differenceFrom(exported);
				return (difference != null) ? new CopyOutcome(Result.DIFFERS, id, difference)
						: new CopyOutcome(Result.UNCHANGED, id, null);
			}
			return copyMissing(id, exported, malformedLines);
		}
		catch (RuntimeException ex) {
			// One session's failure (a store's error, a session deleted meanwhile) must not stop the others.
			return new CopyOutcome(Result.FAILED, id, String.valueOf(ex.getMessage()));
		}
	}

	private CopyOutcome copyMissing(String id, ExportedSession exported, int malformedLines) {
		@Nullable String importedLeaf = this.target.importSession(exported.bytes(), false, false).leafId();
		if (!Objects.equals(importedLeaf, exported.leafId())) {
			// An import puts the leaf at the last entry. Conditional: a server on the target may have moved it since.
			this.target.moveLeaf(id, ExpectedLeaf.of(importedLeaf), exported.leafId());
		}
		String difference = ExportedSession.of(this.target, id).differenceFrom(exported);
		if (difference != null) {
			return new CopyOutcome(Result.FAILED, id, "copied, but " + difference);
		}
		String detail = count(exported.entryCount(), "entry", "entries");
		return new CopyOutcome(Result.COPIED, id,
				(malformedLines > 0) ? detail + ", " + count(malformedLines, "malformed line") + " left out" : detail);
	}

	private static String count(int count, String one) {
		return count(count, one, one + "s");
	}

	private static String count(int count, String one, String many) {
		return count + " " + ((count == 1) ? one : many);
	}

}

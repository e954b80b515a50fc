package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The content of a session about to be created: what storage writes as a new file.
 *
 * @param header the new header
 * @param titleSlot the title slot, only where the content came with one (an imported file)
 * @param entries the entries in file order
 * @param leafId the leaf of the new session
 */
public record NewSession(SessionHeader header, @Nullable TitleSlot titleSlot, List<EntryLine> entries,
		@Nullable String leafId) {

	public NewSession {
		entries = List.copyOf(entries);
	}

	/** A session without a title slot: Arbor never adds one (docs/SESSION-FORMAT.md#a-file-line-by-line). */
	public NewSession(SessionHeader header, List<EntryLine> entries, @Nullable String leafId) {
		this(header, null, entries, leafId);
	}

	public SessionLines lines() {
		return new SessionLines(this.titleSlot, this.header, this.entries);
	}

}

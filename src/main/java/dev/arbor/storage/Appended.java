package dev.arbor.storage;

import java.util.List;

import dev.arbor.session.EntryLine;

/**
 * What an append answers.
 *
 * @param entries the stored entries, in order
 * @param replayed whether they were stored by an earlier request under the same idempotency key, and nothing was
 * written now
 */
public record Appended(List<EntryLine> entries, boolean replayed) {

	public Appended {
		entries = List.copyOf(entries);
	}

}

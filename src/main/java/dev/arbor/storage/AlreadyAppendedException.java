package dev.arbor.storage;

import java.util.List;

import dev.arbor.session.EntryLine;

/**
 * What the plan of a keyed append throws, under the session's lock, when an earlier append under the same key and
 * drafts is in the session already: the store writes nothing, and {@link AppendKeys} answers the earlier entries.
 */
final class AlreadyAppendedException extends RuntimeException {

	private final transient List<EntryLine> entries;

	AlreadyAppendedException(List<EntryLine> entries) {
		super(null, null, false, false); // an answer, not an error: no stack trace to fill
		this.entries = entries;
	}

	List<EntryLine> entries() {
		return this.entries;
	}

}

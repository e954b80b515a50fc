package dev.arbor.storage;

import java.util.List;

import dev.arbor.session.EntryLine;
import org.jspecify.annotations.Nullable;

/**
 * What a store tells its listeners once a change is durable. Changes of one session arrive in the order
 * they were made, each exactly once, and only after the disk holds them: a listener never announces an
 * entry that a crash could take back.
 */
public sealed interface SessionChange {

	String sessionId();

	/**
	 * Entries appended in one request, in file order; the leaf is now the last one.
	 *
	 * @param oldLeafId the leaf before, which the first entry hangs under unless it is a branch summary
	 */
	record EntriesAppended(String sessionId, List<EntryLine> entries, @Nullable String oldLeafId)
			implements SessionChange {

		public EntriesAppended {
			entries = List.copyOf(entries);
		}

		public String newLeafId() {
			return this.entries.get(this.entries.size() - 1).id();
		}

	}

	/** The leaf moved without an append ({@code branch} or {@code resetLeaf}). */
	record LeafMoved(String sessionId, @Nullable String oldLeafId, @Nullable String newLeafId)
			implements SessionChange {
	}

	/** A session was created, imported, branched or forked. */
	record SessionCreated(SessionInfo session) implements SessionChange {

		@Override
		public String sessionId() {
			return this.session.id();
		}

	}

	/** A session's file was deleted. */
	record SessionDeleted(String sessionId) implements SessionChange {
	}

}

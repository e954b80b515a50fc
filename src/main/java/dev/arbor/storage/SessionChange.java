package dev.arbor.storage;

import java.util.List;
import java.util.Locale;

import dev.arbor.session.EntryLine;
import org.jspecify.annotations.Nullable;

/**
 * What a store tells its listeners of a session. Changes of one session arrive in the order they were made, each
 * exactly once. A change this store made arrives only after the disk holds it, or (the PostgreSQL store) in the
 * transaction that commits it: a listener never announces an entry that a crash could take back. A change another
 * process made arrives once the store has taken it in from the file, as durable as its writer made it.
 */
public sealed interface SessionChange {

	String sessionId();

	/** Who made a change. */
	enum Origin {

		/** This store, through its API. */
		ARBOR,

		/** Another process writing the store's files, such as a coding agent (or another Arbor). */
		EXTERNAL;

		/** The name events give it. */
		public String wireName() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * Entries appended in one request, or by another process, in file order; the leaf is now the last one.
	 *
	 * @param oldLeafId the leaf before, which the first entry hangs under unless it is a branch summary (or, from
	 * another process, whatever its writer chose)
	 * @param origin who appended them
	 */
	record EntriesAppended(String sessionId, List<EntryLine> entries, @Nullable String oldLeafId, Origin origin)
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

	/**
	 * Another process rewrote, replaced or shrank the session's file, and the store read it again whole: what
	 * anyone holds of the session may be out of date.
	 *
	 * @param session the session as read again
	 */
	record SessionReloaded(SessionInfo session) implements SessionChange {

		@Override
		public String sessionId() {
			return this.session.id();
		}

	}

	/**
	 * Another process moved or renamed the session's file within the store (in the file store, anywhere under the
	 * storage directory): the session is the same, under its id, with its entries and its leaf; only where it lives
	 * changed. Always {@link Origin#EXTERNAL}: Arbor never moves a session's file.
	 *
	 * @param oldName where it was, relative to the store's root, with {@code /} between names
	 * @param name where it is now, in the same form
	 */
	record SessionMoved(String sessionId, String oldName, String name) implements SessionChange {
	}

	/**
	 * A session was created, imported, branched or forked, or another process added its file.
	 *
	 * @param origin who made it
	 */
	record SessionCreated(SessionInfo session, Origin origin) implements SessionChange {

		@Override
		public String sessionId() {
			return this.session.id();
		}

	}

	/**
	 * A session's file was deleted, through the store or by another process.
	 *
	 * @param origin who deleted it
	 */
	record SessionDeleted(String sessionId, Origin origin) implements SessionChange {
	}

}

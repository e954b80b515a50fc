package dev.arbor.operations;

import java.util.List;
import java.util.Objects;

import dev.arbor.session.SessionLines;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Sessions as wholes where the store alone does not answer: listing them a page at a time, deleting one while no
 * navigation holds it, exporting one as it is at one moment (docs/API.md#sessions). Creating, reading and importing
 * a session are the store's own operations ({@link SessionStore}).
 */
@Service
public class SessionOperations {

	private final SessionStore store;

	private final SessionGates gates;

	public SessionOperations(SessionStore store, SessionGates gates) {
		this.store = store;
		this.gates = gates;
	}

	/**
	 * Sessions newest first (by their newest entry), optionally only those of one working directory, with the files
	 * that are not sessions.
	 *
	 * @param cwd the header's {@code cwd} to match exactly, or {@code null} for every session
	 * @param limit the most sessions on the page
	 * @param cursor the {@code nextCursor} of the previous page, or {@code null} for the first
	 */
	public SessionListing list(@Nullable String cwd, int limit, @Nullable String cursor) {
		SessionCursor after = (cursor != null) ? SessionCursor.parse(cursor) : null;
		List<SessionInfo> rest = this.store.list()
			.stream()
			.filter(info -> cwd == null || Objects.equals(cwd, info.header().cwd()))
			.filter(info -> after == null || after.precedes(info))
			.sorted(SessionCursor.NEWEST_FIRST)
			.toList();
		return new SessionListing(Page.of(rest, limit, info -> SessionCursor.after(info).encode()),
				this.store.unreadable());
	}

	public void delete(String sessionId, ExpectedLeaf expected) {
		this.gates.shared(sessionId, () -> {
			this.store.delete(sessionId, expected);
			return null;
		});
	}

	/** The session as a version-3 file, taken at once so that it can be sent while others write. */
	public Snapshot<SessionLines> export(String sessionId) {
		return this.store.read(sessionId, tree -> new Snapshot<>(SessionLines.of(tree), tree.leafId()));
	}

}

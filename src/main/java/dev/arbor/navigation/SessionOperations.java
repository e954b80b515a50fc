package dev.arbor.navigation;

import java.util.List;
import java.util.Objects;

import dev.arbor.session.SessionLines;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.SessionWatch;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/** Sessions as wholes: creating, listing, deleting, importing and exporting them (docs/API.md, Sessions). */
@Service
public class SessionOperations {

	private final SessionStore store;

	private final SessionGates gates;

	public SessionOperations(SessionStore store, SessionGates gates) {
		this.store = store;
		this.gates = gates;
	}

	public SessionInfo create(@Nullable String cwd, @Nullable String title, @Nullable String parentSession) {
		return this.store.create(cwd, title, parentSession);
	}

	public SessionInfo get(String sessionId) {
		return this.store.get(sessionId);
	}

	/** Keeps the session's changes coming, those of other processes included, until the watch is closed. */
	public SessionWatch watch(String sessionId) {
		return this.store.watch(sessionId);
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

	/** Stores an upstream JSONL file under the id in its header, migrated to version 3. */
	public SessionInfo importSession(byte[] content, boolean skipMalformedLines, boolean newId) {
		return this.store.importSession(content, skipMalformedLines, newId);
	}

	/** The session as a version-3 file, taken at once so that it can be sent while others write. */
	public Snapshot<SessionLines> export(String sessionId) {
		return this.store.read(sessionId, tree -> new Snapshot<>(SessionLines.of(tree), tree.leafId()));
	}

}

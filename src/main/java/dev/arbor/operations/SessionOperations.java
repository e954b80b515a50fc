package dev.arbor.operations;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.arbor.session.SessionLines;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.InvalidRequestParameterException;
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

	private final SortedSessions sorted = new SortedSessions();

	public SessionOperations(SessionStore store, SessionGates gates) {
		this.store = store;
		this.gates = gates;
	}

	/**
	 * A page of the sessions in an order, optionally only those of one working directory or those that match words,
	 * with the files that are not sessions.
	 *
	 * @param cwd the header's {@code cwd} to match exactly, or {@code null} for every session
	 * @param q words each of which must begin a word of the session's name, title, first message or cwd
	 * ({@link SessionMatch}), or {@code null}
	 * @param order the order of the listing
	 * @param limit the most sessions on the page
	 * @param cursor the {@code nextCursor} of the previous page (of the same order), or {@code null} for the first
	 * @throws InvalidRequestParameterException when {@code q} cannot be matched
	 * @throws InvalidCursorException when the cursor is not one of this order
	 */
	public SessionListing list(@Nullable String cwd, @Nullable String q, SessionOrder order, int limit,
			@Nullable String cursor) {
		SessionMatch match = (q != null) ? SessionMatch.parse(q) : null;
		SessionCursor after = (cursor != null) ? SessionCursor.parse(cursor, order) : null;
		SortedSessions.Sorted sorted = this.sorted.of(this.store.list(), order);
		// From the cursor on, only as far as the page and one more: whether there is a next page
		List<SessionOrder.Placed> page = new ArrayList<>();
		for (int i = sorted.start(after); i < sorted.size() && page.size() <= limit; i++) {
			SessionOrder.Placed placed = sorted.get(i);
			SessionInfo info = placed.info();
			if ((cwd == null || Objects.equals(cwd, info.header().cwd())) && (match == null || match.matches(info))) {
				page.add(placed);
			}
		}
		String nextCursor = null;
		if (page.size() > limit) {
			SessionOrder.Placed last = page.get(limit - 1);
			nextCursor = new SessionCursor(order, last.key(), last.info().id()).encode();
		}
		List<SessionInfo> items = page.stream().limit(limit).map(SessionOrder.Placed::info).toList();
		return new SessionListing(new Page<>(items, nextCursor), this.store.unreadable());
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

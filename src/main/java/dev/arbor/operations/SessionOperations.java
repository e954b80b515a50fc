package dev.arbor.operations;

import java.util.List;
import java.util.Objects;

import dev.arbor.session.SessionLines;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.InvalidRequestParameterException;
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
		List<SessionOrder.Placed> rest = this.store.list()
			.stream()
			.filter(info -> cwd == null || Objects.equals(cwd, info.header().cwd()))
			.map(order::place)
			.filter(placed -> after == null || after.precedes(placed.key(), placed.info().id()))
			.filter(placed -> match == null || match.matches(placed.info()))
			.sorted(order.comparator())
			.toList();
		Page<SessionOrder.Placed> page = Page.of(rest, limit,
				placed -> new SessionCursor(order, placed.key(), placed.info().id()).encode());
		return new SessionListing(new Page<>(page.items().stream().map(SessionOrder.Placed::info).toList(),
				page.nextCursor()), this.store.unreadable());
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

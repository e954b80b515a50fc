package dev.arbor.operations;

import java.util.Comparator;

import dev.arbor.storage.InvalidRequestParameterException;
import dev.arbor.storage.SessionInfo;
import org.jspecify.annotations.Nullable;

/**
 * The session listing's order: a {@link SessionSort}, ascending or descending, then the session id in the same
 * direction, so that every session has one place and a cursor resumes exactly after it.
 *
 * @param sort what the sessions are sorted by
 * @param descending whether the largest key comes first
 */
public record SessionOrder(SessionSort sort, boolean descending) {

	/** Most recently changed first: the listing's order when none is asked for. */
	public static final SessionOrder DEFAULT = new SessionOrder(SessionSort.CHANGED, true);

	/**
	 * Reads the listing's {@code sort} ({@code changed} when absent) and {@code order} ({@code desc} when absent).
	 *
	 * @throws InvalidRequestParameterException naming the parameter that is neither
	 */
	public static SessionOrder of(@Nullable String sort, @Nullable String order) {
		SessionSort by;
		try {
			by = (sort != null) ? SessionSort.fromName(sort) : SessionSort.CHANGED;
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRequestParameterException("sort", ex.getMessage());
		}
		if (order == null) {
			return new SessionOrder(by, true);
		}
		return switch (order) {
			case "desc" -> new SessionOrder(by, true);
			case "asc" -> new SessionOrder(by, false);
			default -> throw new InvalidRequestParameterException("order", "Unknown order '" + order + "': expected asc or desc");
		};
	}

	/** A session with its key in this order, taken once rather than in every comparison. */
	Placed place(SessionInfo info) {
		return new Placed(info, this.sort.keyOf(info));
	}

	Comparator<Placed> comparator() {
		Comparator<Placed> ascending = Comparator.comparing(Placed::key).thenComparing(placed -> placed.info().id());
		return this.descending ? ascending.reversed() : ascending;
	}

	/**
	 * A session and its key.
	 *
	 * @param info the session
	 * @param key its key in the order
	 */
	record Placed(SessionInfo info, SessionSort.Key key) {
	}

}

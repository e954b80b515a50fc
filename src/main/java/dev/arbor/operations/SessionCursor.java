package dev.arbor.operations;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;

import dev.arbor.storage.SessionInfo;

/**
 * Where a page of the session listing ends: the sort key of its last session. Opaque to clients (URL-safe Base64
 * of {@code <changedAt millis>|<session id>}); a key, not an offset, so sessions created meanwhile shift nothing.
 *
 * @param changedAt when the last session last changed
 * @param sessionId the last session's id
 */
record SessionCursor(long changedAt, String sessionId) {

	/**
	 * The listing's order: most recently changed first (a session branched or imported just now on top, whatever
	 * the times of its entries), then by id, descending, so that every session has a place.
	 */
	static final Comparator<SessionInfo> NEWEST_FIRST = Comparator.comparingLong(SessionInfo::changedAt)
		.thenComparing(SessionInfo::id)
		.reversed();

	static SessionCursor after(SessionInfo info) {
		return new SessionCursor(info.changedAt(), info.id());
	}

	static SessionCursor parse(String cursor) {
		try {
			String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
			int separator = text.indexOf('|');
			return new SessionCursor(Long.parseLong(text.substring(0, separator)), text.substring(separator + 1));
		}
		catch (IllegalArgumentException | IndexOutOfBoundsException ex) {
			throw new InvalidCursorException("cursor", "cursor is not one this API returned");
		}
	}

	/** Whether a session comes after this cursor in {@link #NEWEST_FIRST} order. */
	boolean precedes(SessionInfo info) {
		int byTime = Long.compare(info.changedAt(), this.changedAt);
		return (byTime != 0) ? byTime < 0 : info.id().compareTo(this.sessionId) < 0;
	}

	String encode() {
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString((this.changedAt + "|" + this.sessionId).getBytes(StandardCharsets.UTF_8));
	}

}

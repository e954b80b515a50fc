package dev.arbor.operations;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a page of the session listing ends: the order it was listed in and the last session's place in it. Opaque to
 * clients (URL-safe Base64 of {@code <sort>|<a or d>|<number key>|<session id>|<text key>}); a key, not an offset, so
 * sessions created meanwhile shift nothing. The cursors of earlier versions ({@code <changedAt>|<session id>}, most
 * recently changed first) still resume their listing.
 *
 * @param order the listing's order
 * @param key the last session's key in it
 * @param sessionId the last session's id
 */
record SessionCursor(SessionOrder order, SessionSort.Key key, String sessionId) {

	/**
	 * Reads a cursor handed out for the same order.
	 *
	 * @throws InvalidCursorException when this API did not hand it out, or did for another order
	 */
	static SessionCursor parse(String cursor, SessionOrder order) {
		SessionCursor parsed;
		try {
			String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
			String[] parts = text.split("\\|", 5);
			if (parts.length == 2) {
				parsed = new SessionCursor(SessionOrder.DEFAULT, new SessionSort.Key(Long.parseLong(parts[0]), ""),
						parts[1]);
			}
			else if (parts.length == 5 && (parts[1].equals("a") || parts[1].equals("d"))) {
				parsed = new SessionCursor(new SessionOrder(SessionSort.fromName(parts[0]), parts[1].equals("d")),
						new SessionSort.Key(Long.parseLong(parts[2]), parts[4]), parts[3]);
			}
			else {
				throw new IllegalArgumentException("not a cursor");
			}
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidCursorException("cursor", "cursor is not one this API returned");
		}
		if (!parsed.order.equals(order)) {
			throw new InvalidCursorException("cursor",
					"cursor continues the listing with sort=" + parsed.order.sort().apiName() + "&order="
							+ (parsed.order.descending() ? "desc" : "asc")
							+ ": ask with those, or leave cursor out to start this order from its first page");
		}
		return parsed;
	}

	/** Whether a session with this key and id comes after the cursor in its order. */
	boolean precedes(SessionSort.Key key, String sessionId) {
		int compared = key.compareTo(this.key);
		if (compared == 0) {
			compared = sessionId.compareTo(this.sessionId);
		}
		return this.order.descending() ? compared < 0 : compared > 0;
	}

	String encode() {
		String text = this.order.sort().apiName() + "|" + (this.order.descending() ? "d" : "a") + "|"
				+ this.key.number() + "|" + this.sessionId + "|" + this.key.text();
		return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

}

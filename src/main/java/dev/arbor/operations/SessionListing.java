package dev.arbor.operations;

import java.util.List;

import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.UnreadableSession;

/**
 * A page of the session listing, and the files under the storage directory that are not sessions: reported,
 * never modified (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
 *
 * @param sessions this page of sessions
 * @param unreadable every file that is not a usable session, with the reason
 */
public record SessionListing(Page<SessionInfo> sessions, List<UnreadableSession> unreadable) {

	public SessionListing {
		unreadable = List.copyOf(unreadable);
	}

}

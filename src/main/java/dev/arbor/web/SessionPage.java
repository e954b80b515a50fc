package dev.arbor.web;

import java.util.List;

import dev.arbor.operations.Page;
import dev.arbor.operations.SessionListing;
import dev.arbor.storage.SessionInfo;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A page of the session listing.
 *
 * @param items sessions, most recently updated first
 * @param nextCursor pass as {@code cursor} for the next page; {@code null} on the last
 * @param unreadable files under the storage directory that are not sessions
 */
@Schema(description = "A page of sessions, most recently updated first, and the files that are not sessions.")
record SessionPage(List<SessionResponse> items,
		@Schema(description = "Pass as `cursor` for the next page; null on the last page.", example = "MTc2MzY4MTE4MTU1MHwwMTlhOWYzZQ") @Nullable String nextCursor,
		@Schema(description = "Every `.jsonl` file under the storage directory that is not a usable session, and every sub-folder that cannot be read: listed, never modified.") List<Unreadable> unreadable) {

	/**
	 * A file that is not a session.
	 *
	 * @param file its path under the storage directory
	 * @param reason why it is not a session
	 */
	@Schema(name = "UnreadableFile", description = "A `.jsonl` file under the storage directory that is not a session, or a sub-folder that cannot be read.")
	record Unreadable(@Schema(example = "old/notes.jsonl") String file,
			@Schema(example = "the first record is not a session header with a string id") String reason) {
	}

	static SessionPage of(SessionListing listing) {
		Page<SessionInfo> page = listing.sessions();
		return new SessionPage(page.items().stream().map(SessionResponse::of).toList(), page.nextCursor(),
				listing.unreadable().stream().map(file -> new Unreadable(file.name(), file.reason())).toList());
	}

}

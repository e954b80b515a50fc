package dev.arbor.storage;

import java.nio.file.Path;

import dev.arbor.session.ListingFacts;
import dev.arbor.session.SessionHeader;
import org.jspecify.annotations.Nullable;

/**
 * What a listing or a client needs to know about one session without reading its entries.
 *
 * @param id the session id
 * @param file the session file; {@code null} where sessions are not files (the PostgreSQL store)
 * @param header the stored header (at version 3 once loaded)
 * @param title the title (a title slot overrides the header's)
 * @param listing the name, first message and message count, as pi lists the session
 * (docs/SESSION-FORMAT.md#how-a-session-is-listed): kept current by the store as entries are appended
 * @param leafId the leaf
 * @param entryCount entries in the file
 * @param lastEntryTimestamp epoch milliseconds of the newest entry (by timestamp, not file position), or of the
 * header when there is none
 * @param changedAt epoch milliseconds of the session's last change on disk: its file or its persisted leaf written
 * @param malformedLines lines skipped on load
 */
public record SessionInfo(String id, @Nullable Path file, SessionHeader header, @Nullable String title,
		ListingFacts listing, @Nullable String leafId,
		int entryCount, long lastEntryTimestamp, long changedAt, int malformedLines) {
}

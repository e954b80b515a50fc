package dev.arbor.storage.postgres;

import java.util.UUID;

import dev.arbor.session.ListingFacts;
import org.jspecify.annotations.Nullable;

/**
 * A session's row in {@code arbor_session}: everything but its entries.
 *
 * @param incarnation tells the session apart from an earlier one of the same id
 * @param position how many changes the session has had: a cached tree of the same position is current
 * @param header the header line as stored
 * @param titleSlot the title slot line, where the session has one
 * @param title the title a listing shows (the title slot's, else the header's)
 * @param listing what pi's listing shows; {@code null} for a session stored before the columns, until the store
 * fills them in
 * @param bytes the session's size as a file
 * @param navigationElsewhere whether a navigation on another replica holds the session now
 */
record SessionRow(String id, UUID incarnation, long position, byte[] header, byte @Nullable [] titleSlot,
		@Nullable String title, @Nullable ListingFacts listing, @Nullable String leafId, int entryCount, long bytes, long lastEntryTimestamp,
		long changedAt, boolean navigationElsewhere) {
}

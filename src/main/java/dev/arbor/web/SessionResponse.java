package dev.arbor.web;

import dev.arbor.session.SessionHeader;
import dev.arbor.session.Timestamps;
import dev.arbor.storage.SessionInfo;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A session as the API shows it (docs/API.md#sessions).
 *
 * @param id the session id
 * @param version the format version (3: files are migrated when loaded)
 * @param cwd the working directory the agent ran in
 * @param title the title; a title slot's overrides the header's
 * @param name the name pi shows: the latest {@code session_info} entry's, trimmed; {@code null} when none or cleared
 * @param firstMessage the first user message's text, as pi's listing shows it
 * @param messageCount the {@code message} entries, as pi's listing counts them
 * @param parentSession the session this one was branched or forked from
 * @param createdAt the header's timestamp
 * @param updatedAt the newest entry's timestamp, or the header's for an empty session
 * @param changedAt when the session last changed on disk: an entry written (by anyone), its leaf moved, the file
 * created or imported; the listing's order
 * @param leafId the current position; {@code null} before the first entry
 * @param entryCount entries in the file
 * @param header the stored header, every field
 * @param malformedLines lines of the file that are not entries and were skipped
 */
@Schema(name = "Session", description = "A session: one JSONL file of entries forming a tree, with a movable leaf.")
record SessionResponse(@Schema(example = "019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f") String id,
		@Schema(example = "3") int version, @Schema(example = "/home/me/project") @Nullable String cwd,
		@Schema(description = "The oh-my-pi title: a title slot's overrides the header's.", example = "Fix the flaky test") @Nullable String title,
		@Schema(description = "The name pi shows: the latest `session_info` entry's `name`, trimmed; null when there is none or the latest clears it (docs/SESSION-FORMAT.md, How a session is listed).",
				example = "flaky test hunt") @Nullable String name,
		@Schema(description = "The first user message's text as pi's listing extracts it (a string content, or its text blocks joined with spaces); `(no messages)` when no user message has text.",
				example = "The build fails one run in ten, find out why") String firstMessage,
		@Schema(description = "The `message` entries, as pi's listing counts them (every role, on every branch).", example = "412") int messageCount,
		@Schema(description = "The session this one was branched or forked from (opaque text: an id or an upstream path).", example = "019a9f3e-0000-7000-8000-000000000000") @Nullable String parentSession,
		@Schema(example = "2025-11-20T23:33:01.550Z") @Nullable String createdAt,
		@Schema(example = "2025-11-21T08:02:44.120Z") @Nullable String updatedAt,
		@Schema(description = "When the session last changed on disk: an entry written (by anyone), its leaf moved, the file created or imported. Listings are newest first by this.",
				example = "2025-11-21T08:02:44.391Z") String changedAt,
		@Schema(description = "The current position; null before the first entry.", example = "a1b2c3d4") @Nullable String leafId,
		@Schema(example = "1019") int entryCount,
		SessionHeader header,
		@Schema(description = "Lines of the file that are not entries: skipped on load, kept in a backup when the file is next rewritten.",
				example = "0") int malformedLines) {

	static SessionResponse of(SessionInfo info) {
		SessionHeader header = info.header();
		long updated = info.lastEntryTimestamp();
		String updatedAt = (updated != Timestamps.UNKNOWN) ? Timestamps.format(updated)
				: null;
		return new SessionResponse(info.id(), header.version(), header.cwd(), info.title(), info.listing().name(),
				info.listing().shownFirstMessage(), info.listing().messageCount(), header.parentSession(),
				header.timestamp(), updatedAt, Timestamps.format(info.changedAt()), info.leafId(), info.entryCount(), header,
				info.malformedLines());
	}

}

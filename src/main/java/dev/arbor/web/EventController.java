package dev.arbor.web;

import java.io.IOException;

import dev.arbor.events.EventStreams;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.SessionWatch;
import dev.arbor.web.edge.ProblemType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Live events as Server-Sent Events (docs/API.md#events-server-sent-events). */
@RestController
@Tag(name = "Events", description = "Watch sessions live: Server-Sent Events with replay after Last-Event-ID.")
class EventController {

	private static final String STREAM_DESCRIPTION = """
			Each event has `id:` (increasing; above every id of an earlier run of Arbor), `event:` (its type) and \
			`data:` (one line of JSON with `sessionId`). Types and payloads: `entry_appended` {origin, entry} (as \
			stored), `leaf_changed` {leafId, oldLeafId, origin}, `label_changed` {targetId, label (null when \
			cleared), entryId, origin}, `session_before_tree` {targetId, oldLeafId, commonAncestorId, \
			entriesToSummarizeCount, firstEntryIdToSummarize, lastEntryIdToSummarize, leadingEntryIdsToSummarize (the \
			first 100 ids, root first), entryIdsToSummarizeTruncated (more than 100), userWantsSummary}: bounded \
			however long the branch left behind (the whole list: the entries after `commonAncestorId` on \
			`GET /sessions/{sessionId}/entries/{oldLeafId}/path`, all of them when it is null; hooks get the entries \
			themselves). `session_tree` {newLeafId, oldLeafId, summaryEntry?, \
			fromExtension?}, `session_before_branch` {entryId}, `session_branch` {entryId, newSessionId}, \
			`session_created` {cwd, title, parentSession, leafId, entryCount, origin}, `session_deleted` {origin}, \
			`session_reloaded` {cwd, title, parentSession, leafId, entryCount, origin} (another process rewrote the \
			session's file, or changed it while Arbor did not hold it in memory: refetch it), `session_moved` {file, oldFile, origin} (another process moved or renamed \
			the session's file under the storage directory: the same session, its stream goes on). `origin` is `arbor` for a change made through the API and `external` for \
			one that another process (the coding agent writing the same files) made, taken in from the file. A \
			client that reconnects with `Last-Event-ID` first receives the events it missed, as far as the replay \
			buffer (`arbor.events.replay-size`) reaches; when it does not reach back that far (or the id is from \
			before a restart), the first event is `resync` {lastEventId, reason: "replay-unavailable"} instead: \
			refetch what you show, and go on from there. Comments (`:heartbeat`) keep idle streams open. A client \
			that falls more than `arbor.events.max-pending` events (or `max-pending-bytes`) behind is dropped: it \
			gets a last `resync` {lastEventId, reason: "too-slow"} without an `id:` line, and the stream ends; \
			reconnect with the last id received to replay the rest. When `arbor.events.max-streams` streams are \
			open, the next is refused with 503 `server-busy` and `Retry-After`: wait that long and open it again.

			The stream stays open, so Swagger UI's Execute shows nothing: it waits for the response to end. \
			Follow it with `curl -N -H 'Accept: text/event-stream' <url>` (`-N` prints each event as it comes), or \
			in a browser with `new EventSource(url)`, which reconnects by itself and sends `Last-Event-ID` then; \
			with API keys, add `?access_token=<key>`, as EventSource cannot send headers.""";

	private final EventStreams streams;

	private final SessionStore store;

	EventController(EventStreams streams, SessionStore store) {
		this.streams = streams;
		this.store = store;
	}

	@GetMapping(path = "/sessions/{sessionId}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	@Operation(summary = "Stream a session's events", description = STREAM_DESCRIPTION
			+ "\n\nFollowing a session keeps it loaded, taking in what other processes append to its file. The"
			+ " stream ends after `session_deleted`.")
	@ApiResponse(responseCode = "200", description = "The event stream.",
			content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string")))
	@ProblemResponse(type = ProblemType.SERVER_BUSY,
			description = "`arbor.events.max-streams` streams are open; nothing was subscribed. Open it again after `Retry-After`.")
	void sessionEvents(@PathVariable @ValidId String sessionId,
			@Parameter(description = "The id of the last event received; sent by EventSource when it reconnects.") @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventIdHeader,
			@Parameter(description = "Like `Last-Event-ID`, for clients that cannot set headers; the header wins.") @RequestParam(required = false) @Nullable String lastEventId,
			HttpServletRequest request, HttpServletResponse response) throws IOException {
		Long after = LastEventIds.parse(lastEventIdHeader, lastEventId);
		SessionWatch watch = this.store.watch(sessionId);
		try {
			this.streams.open(request, response, sessionId, after, watch);
		}
		catch (RuntimeException ex) {
			watch.close();
			throw ex;
		}
	}

	@GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	@Operation(summary = "Stream every session's events", description = STREAM_DESCRIPTION)
	@ApiResponse(responseCode = "200", description = "The event stream.",
			content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string")))
	@ProblemResponse(type = ProblemType.SERVER_BUSY,
			description = "`arbor.events.max-streams` streams are open; nothing was subscribed. Open it again after `Retry-After`.")
	void allEvents(
			@Parameter(description = "The id of the last event received; sent by EventSource when it reconnects.") @RequestHeader(name = "Last-Event-ID", required = false) @Nullable String lastEventIdHeader,
			@Parameter(description = "Like `Last-Event-ID`, for clients that cannot set headers; the header wins.") @RequestParam(required = false) @Nullable String lastEventId,
			HttpServletRequest request, HttpServletResponse response) throws IOException {
		this.streams.open(request, response, null, LastEventIds.parse(lastEventIdHeader, lastEventId), null);
	}

}

package dev.arbor.web;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.Objects;

import dev.arbor.operations.SessionOperations;
import dev.arbor.operations.SessionOrder;
import dev.arbor.operations.Snapshot;
import dev.arbor.operations.TreeWrites;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionLines;
import dev.arbor.storage.Appended;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import dev.arbor.web.edge.ProblemType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/** Sessions as wholes (docs/API.md#sessions). */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Sessions", description = "Create, list, delete, import and export sessions.")
class SessionController {

	/** The media type of session files; {@code text/plain} is accepted too, for {@code curl --data-binary}. */
	static final String NDJSON = "application/x-ndjson";

	private final SessionStore store;

	private final SessionOperations sessions;

	private final TreeWrites writes;

	SessionController(SessionStore store, SessionOperations sessions, TreeWrites writes) {
		this.store = store;
		this.sessions = sessions;
		this.writes = writes;
	}

	@PostMapping("/sessions")
	@Operation(summary = "Create a session",
			description = "Creates an empty session (a version-3 file with only its header). The body and each of its fields may be left out.")
	@ApiResponse(responseCode = "201", description = "Created; `Location` names the session, `ETag` is \"root\" (no entry yet).")
	ResponseEntity<SessionResponse> createSession(@RequestBody(required = false) @Nullable CreateSessionRequest request) {
		CreateSessionRequest fields = (request != null) ? request : CreateSessionRequest.EMPTY;
		SessionInfo info = this.store.create(fields.cwd(), fields.title(), fields.parentSession());
		return created(info);
	}

	@GetMapping("/sessions")
	@Operation(summary = "List sessions",
			description = "Sessions a page at a time, most recently changed first unless `sort` and `order` say otherwise; `q` keeps those whose name, title, first message or cwd has a word beginning with each of its words, as a list filtered while someone types. Files under the storage directory that are not sessions are listed in `unreadable`.")
	@ApiResponse(responseCode = "200", description = "A page of sessions.")
	SessionPage listSessions(
			@Parameter(description = "Only sessions whose header `cwd` is exactly this.", example = "/home/me/project") @RequestParam(required = false) @Nullable String cwd,
			@Parameter(description = "Words (letters and digits, without case), each of which must begin a word of the session's `name`, `title`, `firstMessage` or `cwd`; at most 1,000 characters and 16 words.", example = "flaky te") @RequestParam(required = false) @Nullable String q,
			@Parameter(description = "What the sessions are sorted by: `changed` (the last change), `created` (the header's timestamp), `name` (the name, else the title, else the first message, without case) or `messages` (`messageCount`).", schema = @Schema(allowableValues = { "changed", "created", "name", "messages" }, defaultValue = "changed")) @RequestParam(required = false) @Nullable String sort,
			@Parameter(description = "`desc` (largest first) or `asc`.", schema = @Schema(allowableValues = { "desc", "asc" }, defaultValue = "desc")) @RequestParam(required = false) @Nullable String order,
			@Parameter(description = "The most sessions on the page (1 to 1000).") @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit,
			@Parameter(description = "The `nextCursor` of the previous page, asked with the same `sort` and `order`.") @RequestParam(required = false) @Nullable String cursor) {
		return SessionPage.of(this.sessions.list(cwd, q, SessionOrder.of(sort, order), limit, cursor));
	}

	@GetMapping("/sessions/{sessionId}")
	@Operation(summary = "Get a session", description = "The session's header, counts and leaf, without its entries.")
	@ApiResponse(responseCode = "200", description = "The session; `ETag` is its leaf.")
	ResponseEntity<SessionResponse> getSession(@PathVariable @ValidId String sessionId) {
		SessionInfo info = this.store.get(sessionId);
		return ResponseEntity.ok().eTag(ETags.forLeaf(info.leafId())).body(SessionResponse.of(info));
	}

	@PutMapping("/sessions/{sessionId}/name")
	@Operation(summary = "Name a session",
			description = "Appends a `session_info` entry with the name, trimmed, as pi's `/name` does, so that pi and Arbor show the same name; an empty name clears it. The entry becomes the leaf; `session_renamed` tells subscribers.")
	@ApiResponse(responseCode = "200", description = "The `session_info` entry; `ETag` is the new leaf (that entry).")
	ResponseEntity<EntryLine> setName(@PathVariable @ValidId String sessionId, ExpectedLeaf expected,
			@Nullable IdempotencyKey key, @RequestBody @Valid NameRequest request) {
		Appended appended = this.writes.setName(sessionId, expected, Objects.requireNonNull(request.name()), key);
		EntryLine entry = appended.entries().get(0);
		return IdempotencyKeys.marked(ResponseEntity.ok(), appended).eTag(ETags.forLeaf(entry.id())).body(entry);
	}

	@DeleteMapping("/sessions/{sessionId}")
	@Operation(summary = "Delete a session", description = "Deletes the session file and its persisted leaf.")
	@ApiResponse(responseCode = "204", description = "Deleted.")
	ResponseEntity<Void> deleteSession(@PathVariable @ValidId String sessionId, ExpectedLeaf expected) {
		this.sessions.delete(sessionId, expected);
		return ResponseEntity.noContent().build();
	}

	@PostMapping(path = "/sessions/import", consumes = { NDJSON, MediaType.TEXT_PLAIN_VALUE, "application/jsonl" })
	@Operation(summary = "Import a session file",
			description = """
					Stores an upstream pi or oh-my-pi session file under the id in its header (or a fresh one, with \
					`newId=true`), migrated to version 3 \
					(v1 entries get ids derived from the session id and their position, the same on every import). \
					The file is written whole, so that it equals what an export gives. A file with lines that are not \
					entries is refused unless `skipMalformedLines=true`. The body counts against \
					`arbor.api.max-request-bytes`.""")
	@io.swagger.v3.oas.annotations.parameters.RequestBody(description = "The session file, one JSON object a line.",
			content = @Content(mediaType = NDJSON, schema = @Schema(type = "string"), examples = @ExampleObject(value = """
					{"type":"session","version":3,"id":"019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f","timestamp":"2025-11-20T23:33:01.550Z","cwd":"/home/me/project"}
					{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2025-11-20T23:33:02.000Z","message":{"role":"user","content":"Make the config loader read env vars"}}
					{"type":"message","id":"b2c3d4e5","parentId":"a1b2c3d4","timestamp":"2025-11-20T23:33:05.120Z","message":{"role":"assistant","content":[{"type":"text","text":"It reads ARBOR_* now."}],"provider":"anthropic","model":"claude-sonnet-4-5"}}
					{"type":"message","id":"c3d4e5f6","parentId":"b2c3d4e5","timestamp":"2025-11-20T23:33:09.000Z","message":{"role":"user","content":"Run the tests"}}
					""")))
	@ApiResponse(responseCode = "201", description = "Imported; `Location` names the session.")
	@ProblemResponse(type = ProblemType.SESSION_EXISTS,
			description = "A session with the file's id exists (`newId=true` imports it under a fresh one).")
	ResponseEntity<SessionResponse> importSession(@RequestBody byte[] file,
			@Parameter(description = "Leave out lines that are not entries instead of refusing the file.") @RequestParam(defaultValue = "false") boolean skipMalformedLines,
			@Parameter(description = "Store it under a fresh session id (written into its header) instead of the file's: for a file imported before, or one whose id another session has (409 otherwise).") @RequestParam(defaultValue = "false") boolean newId) {
		return created(this.store.importSession(file, skipMalformedLines, newId));
	}

	@GetMapping(path = "/sessions/{sessionId}/export", produces = NDJSON)
	@Operation(summary = "Export a session file",
			description = "The session as a version-3 JSONL file that the upstream agents open: its title slot where it has one, the header, every entry as stored.")
	@ApiResponse(responseCode = "200", description = "The file, as an attachment named `<sessionId>.jsonl`.",
			content = @Content(mediaType = NDJSON, schema = @Schema(type = "string")))
	ResponseEntity<StreamingResponseBody> exportSession(@PathVariable @ValidId String sessionId) {
		Snapshot<SessionLines> export = this.sessions.export(sessionId);
		StreamingResponseBody body = out -> {
			OutputStream buffered = new BufferedOutputStream(out, 1 << 16);
			export.value().writeTo(buffered);
			buffered.flush();
		};
		return ResponseEntity.ok()
			.eTag(ETags.forLeaf(export.leafId()))
			.contentType(MediaType.parseMediaType(NDJSON))
			.header(HttpHeaders.CONTENT_DISPOSITION,
					ContentDisposition.attachment().filename(sessionId + ".jsonl").build().toString())
			.body(body);
	}

	private static ResponseEntity<SessionResponse> created(SessionInfo info) {
		return ResponseEntity.created(URI.create("/sessions/" + info.id()))
			.eTag(ETags.forLeaf(info.leafId()))
			.body(SessionResponse.of(info));
	}

}

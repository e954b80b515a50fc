package dev.arbor.web;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.operations.EntryDetail;
import dev.arbor.operations.Page;
import dev.arbor.operations.Snapshot;
import dev.arbor.operations.TreeQueries;
import dev.arbor.operations.TreeWrites;
import dev.arbor.session.EntryLine;
import dev.arbor.session.InvalidEntryException;
import dev.arbor.storage.Appended;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Entries and paths (docs/API.md#entries). */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Entries", description = "Append entries; read them, their children and paths.")
class EntryController {

	private final TreeQueries queries;

	private final TreeWrites writes;

	EntryController(TreeQueries queries, TreeWrites writes) {
		this.queries = queries;
		this.writes = writes;
	}

	@PostMapping("/sessions/{sessionId}/entries")
	@Operation(summary = "Append entries",
			description = """
					Appends one entry, or an array of them in order (all or nothing), as children of the leaf; the leaf \
					moves to the last one. Arbor assigns `id`, `parentId` and `timestamp`; every other field is stored \
					as sent. The appendable types and their checks are listed with the `EntryDraft` schema; `branch_summary` \
					is written by `POST /sessions/{sessionId}/branch-summaries` only. Acknowledged once on disk. \
					With an `Idempotency-Key`, a retry of the same body answers what the first attempt stored (201, \
					`Idempotent-Replayed: true`) and writes nothing again.""")
	@io.swagger.v3.oas.annotations.parameters.RequestBody(
			description = "One entry without `id`, `parentId` and `timestamp`, or an array of them.",
			content = @Content(schema = @Schema(ref = "#/components/schemas/" + OpenApiConfiguration.ENTRY_DRAFTS), examples = {
					@ExampleObject(name = "user message", value = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}"),
					@ExampleObject(name = "a batch", value = """
							[{"type":"message","message":{"role":"user","content":"Run the tests"}},
							 {"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"All green."}],"provider":"anthropic","model":"claude-sonnet-4-5"}}]"""),
					@ExampleObject(name = "model change", value = "{\"type\":\"model_change\",\"model\":\"anthropic/claude-sonnet-4-5\"}") }))
	@ApiResponse(responseCode = "201",
			description = "The stored entry (or the array of them); `ETag` is the new leaf, `Location` names a single entry.",
			content = @Content(schema = @Schema(ref = "#/components/schemas/" + OpenApiConfiguration.APPENDED_ENTRIES)))
	ResponseEntity<Object> appendEntries(@PathVariable @ValidId String sessionId, ExpectedLeaf expected,
			@Nullable IdempotencyKey key, @RequestBody JsonNode body) {
		Appended appended = this.writes.append(sessionId, expected, drafts(body), key);
		List<EntryLine> stored = appended.entries();
		EntryLine last = stored.get(stored.size() - 1);
		// a replay answers as the first attempt did: its entries, and its new leaf as ETag, wherever the leaf is now
		ResponseEntity.BodyBuilder response = IdempotencyKeys.marked(ResponseEntity.status(201), appended)
			.eTag(ETags.forLeaf(last.id()));
		if (body.isArray()) {
			return response.body(stored);
		}
		return response.location(URI.create("/sessions/" + sessionId + "/entries/" + last.id())).body(last);
	}

	@GetMapping("/sessions/{sessionId}/entries")
	@Operation(summary = "List entries", description = "Entries in file order, a page at a time, each as stored.")
	@ApiResponse(responseCode = "200", description = "A page of entries; `ETag` is the leaf.")
	ResponseEntity<EntryPage> listEntries(@PathVariable @ValidId String sessionId,
			@Parameter(description = "Start after this entry: the previous page's `nextCursor`, or any entry id (to read what was appended since).", example = "a1b2c3d4") @RequestParam(required = false) @ValidId @Nullable String after,
			@Parameter(description = "The most entries on the page (1 to 1000).") @RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
		Snapshot<Page<EntryLine>> page = this.queries.entries(sessionId, after, limit);
		return Responses.ok(page, new EntryPage(page.value().items(), page.value().nextCursor()));
	}

	@GetMapping("/sessions/{sessionId}/entries/{entryId}")
	@Operation(summary = "Get an entry", description = "The entry as stored, its resolved label and its children.")
	@ApiResponse(responseCode = "200", description = "The entry; `ETag` is the leaf.")
	ResponseEntity<EntryResponse> getEntry(@PathVariable @ValidId String sessionId,
			@PathVariable @ValidId String entryId) {
		Snapshot<EntryDetail> detail = this.queries.entry(sessionId, entryId);
		return Responses.ok(detail, EntryResponse.of(detail.value()));
	}

	@GetMapping("/sessions/{sessionId}/entries/{entryId}/children")
	@Operation(summary = "Get an entry's children", description = "Direct children, in insertion order.")
	@ApiResponse(responseCode = "200", description = "The children as stored; `ETag` is the leaf.")
	ResponseEntity<List<EntryLine>> getChildren(@PathVariable @ValidId String sessionId,
			@PathVariable @ValidId String entryId) {
		return Responses.ok(this.queries.children(sessionId, entryId));
	}

	@GetMapping("/sessions/{sessionId}/entries/{entryId}/path")
	@Operation(summary = "Get the path to an entry", description = "`getPath`: the entries from the root down to this one.")
	@ApiResponse(responseCode = "200", description = "Root first; `ETag` is the leaf.")
	ResponseEntity<List<EntryLine>> getEntryPath(@PathVariable @ValidId String sessionId,
			@PathVariable @ValidId String entryId) {
		return Responses.ok(this.queries.path(sessionId, entryId));
	}

	@GetMapping("/sessions/{sessionId}/path")
	@Operation(summary = "Get the path to the leaf", description = "The entries from the root down to the leaf; empty while the leaf is null.")
	@ApiResponse(responseCode = "200", description = "Root first; `ETag` is the leaf.")
	ResponseEntity<List<EntryLine>> getLeafPath(@PathVariable @ValidId String sessionId) {
		return Responses.ok(this.queries.leafPath(sessionId));
	}

	/** One draft or an array of them; anything else is no entry at all. */
	private static List<ObjectNode> drafts(JsonNode body) {
		if (body instanceof ObjectNode draft) {
			return List.of(draft);
		}
		if (!body.isArray()) {
			throw new InvalidEntryException(null, "The body must be an entry (a JSON object) or an array of entries");
		}
		List<ObjectNode> drafts = new ArrayList<>(body.size());
		for (int i = 0; i < body.size(); i++) {
			if (!(body.get(i) instanceof ObjectNode draft)) {
				throw new InvalidEntryException("[" + i + "]", "Entry " + i + " of the batch is not a JSON object");
			}
			drafts.add(draft);
		}
		return drafts;
	}

}

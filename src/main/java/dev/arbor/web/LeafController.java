package dev.arbor.web;

import java.net.URI;

import dev.arbor.operations.Snapshot;
import dev.arbor.operations.TreeQueries;
import dev.arbor.operations.TreeWrites;
import dev.arbor.session.EntryLine;
import dev.arbor.storage.ExpectedLeaf;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The leaf and branch summaries (docs/API.md#leaf-and-labels). */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Leaf", description = "Read and move the leaf; write branch summaries.")
class LeafController {

	private final TreeQueries queries;

	private final TreeWrites writes;

	LeafController(TreeQueries queries, TreeWrites writes) {
		this.queries = queries;
		this.writes = writes;
	}

	@GetMapping("/sessions/{sessionId}/leaf")
	@Operation(summary = "Get the leaf", description = "The current position: the entry the next append hangs under, or null before the first entry.")
	@ApiResponse(responseCode = "200", description = "The leaf; `ETag` is the leaf too.")
	ResponseEntity<LeafResponse> getLeaf(@PathVariable @ValidId String sessionId) {
		Snapshot<@Nullable String> leaf = this.queries.leaf(sessionId);
		return Responses.ok(leaf, new LeafResponse(leaf.value()));
	}

	@PutMapping("/sessions/{sessionId}/leaf")
	@Operation(summary = "Move the leaf",
			description = "`branch(entryId)`, or `resetLeaf()` for a null `entryId`. Nothing is appended; the move is persisted.")
	@ApiResponse(responseCode = "200", description = "The new leaf; `ETag` is the new leaf.")
	ResponseEntity<LeafResponse> moveLeaf(@PathVariable @ValidId String sessionId, ExpectedLeaf expected,
			@RequestBody @Valid MoveLeafRequest request) {
		String leafId = this.writes.moveLeaf(sessionId, expected, request.entryId());
		return ResponseEntity.ok().eTag(ETags.forLeaf(leafId)).body(new LeafResponse(leafId));
	}

	@PostMapping("/sessions/{sessionId}/branch-summaries")
	@Operation(summary = "Write a branch summary",
			description = "`branchWithSummary`: moves the leaf to `fromId` and appends a `branch_summary` there (`fromId` \"root\" for null); the summary becomes the leaf. The summary records the position navigated to, not the abandoned leaf.")
	@ApiResponse(responseCode = "201", description = "The `branch_summary` entry; `ETag` is the new leaf.")
	ResponseEntity<EntryLine> appendBranchSummary(@PathVariable @ValidId String sessionId, ExpectedLeaf expected,
			@RequestBody @Valid BranchSummaryRequest request) {
		EntryLine summary = this.writes.appendBranchSummary(sessionId, expected, request.fromId(), request.summary(),
				request.details(), request.fromExtension());
		return ResponseEntity.status(HttpStatus.CREATED)
			.location(URI.create("/sessions/" + sessionId + "/entries/" + summary.id()))
			.eTag(ETags.forLeaf(summary.id()))
			.body(summary);
	}

}

package dev.arbor.web;

import java.net.URI;

import dev.arbor.operations.BranchOutcome;
import dev.arbor.operations.Branching;
import dev.arbor.storage.SessionInfo;
import dev.arbor.web.edge.ProblemType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** New sessions out of an existing one (docs/API.md#branching-into-new-sessions). The source is never written. */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Navigation")
class BranchController {

	private final Branching branching;

	BranchController(Branching branching) {
		this.branching = branching;
	}

	@PostMapping("/sessions/{sessionId}/branch")
	@Operation(summary = "Branch into a new session",
			description = """
					`/branch`: from a user message, a new session holding the path up to the \
					message's parent, with its labels re-created (a new empty session for a root message), whose \
					`parentSession` is this session. The message's text comes back as `selectedText`. \
					`session_before_branch` goes to the event streams and the hooks first; a hook can cancel.""")
	@ApiResponse(responseCode = "201", description = "The new session; `Location` names it and `ETag` is its leaf.",
			headers = @Header(name = HttpHeaders.ETAG, description = "The new session's leaf: `\"<leafId>\"`, `\"root\"` for an empty session.", schema = @Schema(type = "string", example = "\"c3d4e5f6\"")))
	@ApiResponse(responseCode = "200", description = "A hook cancelled: `{cancelled:true, selectedText}`, no session made.")
	@ProblemResponse(type = ProblemType.INVALID_BRANCH_ENTRY, description = "The entry is not a user message.")
	ResponseEntity<BranchResponse> branch(@PathVariable @ValidId String sessionId,
			@RequestBody @Valid BranchRequest request) {
		BranchOutcome outcome = this.branching.branch(sessionId, request.entryId());
		if (outcome.session() == null) {
			return ResponseEntity.ok(BranchResponse.of(outcome));
		}
		return ResponseEntity.created(location(outcome.session()))
			.eTag(ETags.forLeaf(outcome.session().leafId()))
			.body(BranchResponse.of(outcome));
	}

	@PostMapping("/sessions/{sessionId}/fork")
	@Operation(summary = "Fork a session",
			description = "A new session with every entry of every branch, as stored, the same labels and the same leaf; its `parentSession` is this session.")
	@ApiResponse(responseCode = "201", description = "The new session; `Location` names it and `ETag` is its leaf.")
	ResponseEntity<SessionResponse> fork(@PathVariable @ValidId String sessionId) {
		return created(this.branching.fork(sessionId));
	}

	@PostMapping("/sessions/{sessionId}/branched-sessions")
	@Operation(summary = "Copy a path into a new session",
			description = "`createBranchedSession(leafId)`: the path root → leafId without its label entries, then a fresh label entry for each label on that path, in a new session whose leaf is its last entry.")
	@ApiResponse(responseCode = "201", description = "The new session; `Location` names it and `ETag` is its leaf.")
	ResponseEntity<SessionResponse> createBranchedSession(@PathVariable @ValidId String sessionId,
			@RequestBody @Valid BranchedSessionRequest request) {
		return created(this.branching.createBranchedSession(sessionId, request.leafId()));
	}

	private static ResponseEntity<SessionResponse> created(SessionInfo info) {
		return ResponseEntity.created(location(info)).eTag(ETags.forLeaf(info.leafId())).body(SessionResponse.of(info));
	}

	private static URI location(SessionInfo info) {
		return URI.create("/sessions/" + info.id());
	}

}

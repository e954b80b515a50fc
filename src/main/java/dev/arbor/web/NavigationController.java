package dev.arbor.web;

import dev.arbor.operations.ContextFormat;
import dev.arbor.operations.NavigationOutcome;
import dev.arbor.operations.NavigationRequest;
import dev.arbor.operations.Navigator;
import dev.arbor.session.NavigationPlan;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.web.edge.ProblemType;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Navigation inside a session (docs/API.md#navigation). */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Navigation", description = "Move through the tree with summaries and hooks; fork and branch into new sessions.")
class NavigationController {

	private final Navigator navigator;

	NavigationController(Navigator navigator) {
		this.navigator = navigator;
	}

	@PostMapping("/sessions/{sessionId}/navigate")
	@Operation(summary = "Navigate",
			description = """
					`navigateTree`: moves the leaf to the target (to its parent for a user or custom \
					message, whose text comes back as `editorText`), optionally writing a summary of the branch left \
					behind at the new position. `session_before_tree` goes to the event streams and the hooks first: a \
					hook can cancel, or supply the summary. The target being the leaf already changes nothing. Other \
					writes to the session wait until the navigation is done. With `dryRun=true` nothing changes and \
					the answer is the preparation (`NavigationPreview`).""")
	@ApiResponse(responseCode = "200", description = "What the navigation did (or, with `dryRun=true`, would do); `ETag` is the leaf now.",
			content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(oneOf = { NavigateResponse.class, NavigationPreview.class })))
	@ProblemResponse(type = ProblemType.NO_SUMMARY_MODEL, description = "`summarize` without a summary model configured.")
	@ProblemResponse(type = ProblemType.NAVIGATION_IN_PROGRESS, description = "A navigation of this session runs under the same `requestId`.")
	@ProblemResponse(type = ProblemType.SUMMARY_FAILED, description = "The summary model failed, answered nothing, or took longer than `arbor.summary.timeout` (`provider` names it); nothing changed.")
	ResponseEntity<?> navigate(@PathVariable @ValidId String sessionId, ExpectedLeaf expected,
			@RequestBody @Valid NavigateRequest body,
			@Parameter(description = "Only prepare: change nothing, call no hook, and answer what would be done.") @RequestParam(defaultValue = "false") boolean dryRun,
			@Parameter(description = "`false` leaves the rebuilt context out of the answer.") @RequestParam(defaultValue = "true") boolean context) {
		NavigationRequest request = new NavigationRequest(body.targetId(), Boolean.TRUE.equals(body.summarize()),
				body.customInstructions(), body.requestId());
		if (dryRun) {
			NavigationPlan plan = this.navigator.prepare(sessionId, expected, request);
			return ResponseEntity.ok().eTag(ETags.forLeaf(plan.oldLeafId())).body(NavigationPreview.of(plan));
		}
		NavigationOutcome outcome = this.navigator.navigate(sessionId, expected, request,
				context ? ContextFormat.AGENT : null);
		return ResponseEntity.ok().eTag(ETags.forLeaf(outcome.newLeafId())).body(NavigateResponse.of(outcome));
	}

	@DeleteMapping("/sessions/{sessionId}/navigations/{requestId}")
	@Operation(summary = "Abort a navigation",
			description = "Aborts the navigation running under this `requestId` while it waits for hooks or the summary model. It answers `{cancelled:true, aborted:true}` and changes nothing.")
	@ApiResponse(responseCode = "202", description = "Aborted; the navigation's own request answers with the outcome.")
	@ProblemResponse(type = ProblemType.NAVIGATION_NOT_FOUND, description = "No navigation of this session runs under that id (or it is applying its result already).")
	ResponseEntity<Void> abortNavigation(@PathVariable @ValidId String sessionId,
			@PathVariable @ValidId String requestId) {
		this.navigator.abort(sessionId, requestId);
		return ResponseEntity.accepted().build();
	}

}

package dev.arbor.web;

import dev.arbor.operations.ContextFormat;
import dev.arbor.operations.Snapshot;
import dev.arbor.operations.TreeQueries;
import dev.arbor.session.SessionContext;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The model context (docs/API.md#context). */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Context", description = "What the model sees at a leaf.")
class ContextController {

	private final TreeQueries queries;

	ContextController(TreeQueries queries) {
		this.queries = queries;
	}

	@GetMapping("/sessions/{sessionId}/context")
	@Operation(summary = "Build the context",
			description = "`buildSessionContext`: walks the path root → leaf, tracks thinking level, models, mode and injected rules, and emits the messages, starting at the latest compaction's summary and kept entries. `format=llm` gives what a model receives: summaries and custom messages become user messages.")
	@ApiResponse(responseCode = "200", description = "The context; `ETag` is the session's leaf.")
	ResponseEntity<ContextResponse> buildSessionContext(@PathVariable @ValidId String sessionId,
			@Parameter(description = "Build at this entry instead of the leaf. An unknown id is a 404.", example = "b2c3d4e5") @RequestParam(required = false) @ValidId @Nullable String leafId,
			@Parameter(description = "`agent`: agent messages; `llm`: what a model receives.", schema = @Schema(allowableValues = { "agent", "llm" }, defaultValue = "agent")) @RequestParam(required = false) @Nullable ContextFormat format) {
		// the default here, not in @RequestParam: see RequestParameters
		Snapshot<SessionContext> context = this.queries.context(sessionId, leafId,
				(format != null) ? format : ContextFormat.AGENT);
		return Responses.ok(context, ContextResponse.of(context.value()));
	}

}

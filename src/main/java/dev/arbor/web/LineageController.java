package dev.arbor.web;

import dev.arbor.operations.Lineages;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Fork lineage (docs/API.md#fork-lineage): which sessions a session was forked from, and which from it. */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Sessions")
class LineageController {

	private final Lineages lineages;

	LineageController(Lineages lineages) {
		this.lineages = lineages;
	}

	@GetMapping("/sessions/{sessionId}/lineage")
	@Operation(summary = "Get a session's fork lineage",
			description = """
					The sessions this one was forked or branched from (`ancestors`, nearest first) and those forked or \
					branched from it (`descendants`, breadth first), by following the headers' `parentSession` both \
					ways. A `parentSession` names a session by its id (Arbor's forks) or by the path of its file (pi's); \
					one that names no stored session ends the walk up as `missingParent`, and headers that name one \
					another end it as `cycle`. No ETag: it changes with other sessions.""")
	@ApiResponse(responseCode = "200", description = "The lineage; each session as the listing shows it.")
	LineageResponse getLineage(@PathVariable @ValidId String sessionId) {
		return LineageResponse.of(this.lineages.lineage(sessionId));
	}

}

package dev.arbor.web;

import dev.arbor.operations.Snapshot;
import dev.arbor.operations.TreeOutlines;
import dev.arbor.session.TreeOutline;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The outline of the tree (docs/API.md#tree): for sessions too big to send whole. */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Tree")
class TreeOutlineController {

	private static final String DESCRIPTION = """
			The tree with every chain of single-child entries folded into one segment, so that its size grows with \
			the branch points, not with the entries: a 400,000-entry session with a handful of branch points \
			answers in a few KB. A root or a child of a branch point starts a segment; a branch point or an entry \
			without children ends it. Flat (`parentId`, `childSegments`), depth-first in the order of the rows of \
			the `all` view, so that expanding each segment in turn gives exactly those rows.

			To expand a segment, page the rows of the `all` view from its first row: \
			`GET /sessions/{sessionId}/tree/rows?filter=all&from=<firstRowId>&limit=<n>`, following `nextCursor` \
			until the row `lastRowId` has come. A segment's rows follow one another; there are at most `length` of \
			them, fewer when it holds tool-call-only assistant messages, which no view shows unless one is the leaf \
			(`firstRowId` and `lastRowId` are null when none of its entries is a row). Send the outline's `ETag` as \
			`If-None-Match` to be answered 304 while the leaf has not moved.""";

	private final TreeOutlines outlines;

	TreeOutlineController(TreeOutlines outlines) {
		this.outlines = outlines;
	}

	@GetMapping("/sessions/{sessionId}/tree/outline")
	@Operation(summary = "Get the tree's outline", description = DESCRIPTION)
	@ApiResponse(responseCode = "200", description = "The outline; `ETag` is the leaf.")
	ResponseEntity<TreeOutlineResponse> getOutline(@PathVariable @ValidId String sessionId) {
		Snapshot<TreeOutline> outline = this.outlines.outline(sessionId);
		return Responses.ok(outline, TreeOutlineResponse.of(outline.value()));
	}

}

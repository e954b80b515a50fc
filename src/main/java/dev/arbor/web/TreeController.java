package dev.arbor.web;

import java.util.List;
import java.util.Set;

import dev.arbor.operations.RowsPage;
import dev.arbor.operations.Snapshot;
import dev.arbor.operations.TreeQueries;
import dev.arbor.session.RowFilter;
import dev.arbor.session.SessionTreeView;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The tree and its selector view (docs/API.md#tree). */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Tree", description = "The whole tree, flat, and the selector's filtered view of it.")
class TreeController {

	private final TreeQueries queries;

	TreeController(TreeQueries queries) {
		this.queries = queries;
	}

	@GetMapping("/sessions/{sessionId}/tree")
	@Operation(summary = "Get the tree",
			description = "`getTree()`: every entry once with its parent, label and children (by timestamp), roots in file order. Flat on purpose: a nested document would break on deep chains. Entry contents are not included; read them from the entries endpoints.")
	@ApiResponse(responseCode = "200", description = "The tree; `ETag` is the leaf.",
			content = @Content(schema = @Schema(implementation = TreeResponse.class)))
	ResponseEntity<TreeJson> getTree(@PathVariable @ValidId String sessionId) {
		Snapshot<SessionTreeView> tree = this.queries.tree(sessionId);
		return Responses.ok(tree, new TreeJson(tree.value()));
	}

	@GetMapping("/sessions/{sessionId}/tree/rows")
	@Operation(summary = "Get the selector rows",
			description = "The tree flattened depth-first with the leaf's branch first, filtered and searched, and drawn as the upstream tree selector draws it: each row says its indentation (`depth`), its connector, the columns that carry a vertical guide, and which row is selected (the leaf, else its nearest ancestor in the view, else the last row). Each row's `text` is what upstream's selector writes for it (`user: …`, `[bash: npm test]` for a tool result, `[title: …]`). The search is upstream's: the query cut at whitespace, every token a substring of the row's searchable text, ignoring case (`cfg` does not find `config`). "
					+ "Without a position the page starts the view. `aroundSelected=true` or `around` centre the page on a row; `cursor` (a page's `nextCursor`) and `before` (a page's `prevCursor`) page forward and backward; `from` starts at an entry; `offset` starts at a row's `index`, for a list that draws the whole view with a scrollbar. Give at most one. Pages with the same `version` are slices of one view: when it differs, the session changed between them.")
	@ApiResponse(responseCode = "200", description = "A page of rows; `ETag` is the leaf.")
	ResponseEntity<TreeRowsResponse> getTreeRows(@PathVariable @ValidId String sessionId,
			@Parameter(description = "Which entries show.", schema = @Schema(allowableValues = { "default", "no-tools", "user-only", "labeled-only", "all" }, defaultValue = "default")) @RequestParam(required = false) @Nullable RowFilter filter,
			@Parameter(description = "Search: whitespace-separated tokens, all of which must match.", example = "config") @RequestParam(required = false) @Nullable String q,
			@Parameter(description = "The most rows on the page (1 to 10000).") @RequestParam(defaultValue = "1000") @Min(1) @Max(10000) int limit,
			@Parameter(description = "The `nextCursor` of a page: the rows after it.") @RequestParam(required = false) @Nullable String cursor,
			@Parameter(description = "The `prevCursor` of a page: the rows before it.") @RequestParam(required = false) @Nullable String before,
			@Parameter(description = "An entry id: the page centred on its row, or on its nearest ancestor in the view when the view leaves it out, else on the last row.") @RequestParam(required = false) @Nullable String around,
			@Parameter(description = "`true`: the page centred on the selected row, where upstream's selector opens.") @RequestParam(defaultValue = "false") boolean aroundSelected,
			@Parameter(description = "An entry id: the page starting at its row, or at the row that follows it when the view leaves it out (expands an outline segment with `filter=all`).") @RequestParam(required = false) @Nullable String from,
			@Parameter(description = "A row's `index` (0 or more): the page starting at that row, or no rows when it is `matched` or more. For a list that draws the whole view with a scrollbar; unlike a cursor it does not follow a row when the view changes (compare `version`).") @RequestParam(required = false) @Nullable @Min(0) Integer offset,
			@Parameter(description = "Entry ids, comma-separated (at most 1000): folded as upstream's selector folds a branch (Ctrl+←), so that no entry below one of them is a row; each such row says `folded`. An id that names no entry folds nothing.", example = "b2c3d4e5") @RequestParam(required = false) @Nullable @Size(max = 1000) List<String> folded) {
		// the default here, not in @RequestParam: see RequestParameters
		RowFilter shown = (filter != null) ? filter : RowFilter.DEFAULT;
		Snapshot<RowsPage> rows = this.queries.rows(sessionId, shown, q, (folded != null) ? Set.copyOf(folded) : Set.of(),
				RowsWindows.of(limit, cursor, before, around, aroundSelected, from, offset));
		return Responses.ok(rows, TreeRowsResponse.of(rows.value()));
	}

}

package dev.arbor.web;

import java.util.List;

import dev.arbor.storage.SearchQuery;
import dev.arbor.storage.SessionSearch;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Full-text search across every session (docs/API.md#search). */
@RestController
@RequestMapping(produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Search", description = "Find entries by their words, across every session.")
class SearchController {

	private final SessionSearch search;

	SearchController(SessionSearch search) {
		this.search = search;
	}

	@GetMapping("/search")
	@Operation(summary = "Search entries",
			description = "The entries of every session whose text matches `q`, best first, a page at a time, each with a snippet of its text and the matches in it as offsets. `q` is words (each must occur, without case), prefixes (`conf*`) and phrases (`\"read env\"`); anything else in it, such as `AND`, `*:*` or quotes left open, is read as plain words, never as a syntax. `partial` is true while the index is still being built.")
	@ApiResponse(responseCode = "200", description = "A page of hits.")
	SearchResponse search(
			@Parameter(required = true, description = "What to search for: words, prefixes of at least 2 characters (`conf*`) and phrases in double quotes, each of which an entry must match; at most 1,000 characters and 16 of them.", example = "config") @RequestParam(required = false) @Nullable String q,
			@Parameter(description = "Only this session's entries.", example = OpenApiConfiguration.SESSION_ID) @RequestParam(required = false) @Nullable String sessionId,
			@Parameter(description = "Only entries of sessions whose header `cwd` is exactly this.", example = "/home/me/project") @RequestParam(required = false) @Nullable String cwd,
			@Parameter(description = "Only entries of these roles, comma-separated (given once): a message's role (`user`, `assistant`, `toolResult`, `bashExecution`, …) or an entry's kind for the other entries (`branchSummary`, `compaction`, `customMessage`, `label`).", example = "user,assistant") @RequestParam(required = false) @Nullable String role,
			@Parameter(description = "Only entries whose timestamp is at or after this ISO-8601 instant with an offset.", example = "2025-11-01T00:00:00Z") @RequestParam(required = false) @Nullable String after,
			@Parameter(description = "Only entries whose timestamp is before this ISO-8601 instant with an offset.", example = "2030-01-01T00:00:00Z") @RequestParam(required = false) @Nullable String before,
			@Parameter(description = "The most hits on the page (1 to 100).") @RequestParam(defaultValue = "20") @Min(1) @Max(SearchQuery.MAX_LIMIT) int limit,
			@Parameter(description = "The `nextCursor` of the previous page, asked with the same `q` and filters.") @RequestParam(required = false) @Nullable String cursor) {
		SearchQuery query = SearchQuery.parse(q, sessionId, cwd, (role == null) ? null : List.of(role), after, before,
				limit, cursor);
		return SearchResponse.of(this.search.search(query));
	}

}

package dev.arbor.web;

import java.util.List;

import dev.arbor.session.Timestamps;
import dev.arbor.storage.SearchHit;
import dev.arbor.storage.SearchPage;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A page of search hits (docs/API.md#search).
 *
 * @param items the hits, best first
 * @param nextCursor pass as {@code cursor} for the next page; {@code null} on the last
 * @param total how many entries match in all
 * @param partial whether the index is still being built, so that entries may be missing
 */
@Schema(description = "A page of the entries that match, best first.")
record SearchResponse(List<Hit> items,
		@Schema(description = "Pass as `cursor`, with the same `q` and filters, for the next page; null on the last page.", example = "czE6MjA") @Nullable String nextCursor,
		@Schema(description = "How many entries match in all, across every page.", example = "42") long total,
		@Schema(description = "True while the store's search index is still being built (the file store at start-up): entries may be missing; ask again later for all of them.", example = "false") boolean partial) {

	/**
	 * One entry that matches.
	 *
	 * @param sessionId the session it is in
	 * @param entryId its id
	 * @param role what it is
	 * @param timestamp its timestamp, or {@code null} when it has none that reads
	 * @param snippet a stretch of its text around the first match
	 * @param highlights the matched words in {@code snippet}
	 * @param score how well it matches
	 */
	@Schema(name = "SearchHit", description = "An entry that matches: where it is, and a stretch of its text with the matches marked by offsets.")
	record Hit(@Schema(example = OpenApiConfiguration.SESSION_ID) String sessionId,
			@Schema(example = "a1b2c3d4") String entryId,
			@Schema(description = "A message's role (`user`, `assistant`, `toolResult`, `bashExecution`, …) or the entry's kind for the other entries (`branchSummary`, `compaction`, `customMessage`, `label`).", example = "user") String role,
			@Schema(description = "The entry's `timestamp` as ISO-8601 in UTC; null when it has none that reads.", example = "2025-11-20T23:33:02.000Z") @Nullable String timestamp,
			@Schema(description = "Up to 200 characters of the entry's text, starting a little before the first match; line breaks and tabs as spaces. Plain text: never markup.", example = "Make the config loader read env vars") String snippet,
			@Schema(description = "Each matched word or phrase in `snippet`, in order: `[start, end]`, character (UTF-16) offsets, start inclusive, end exclusive.", example = "[[9,15]]") List<int[]> highlights,
			@Schema(description = "How well it matches; higher is better, comparable only within one answer.", example = "0.42") double score) {

		static Hit of(SearchHit hit) {
			String timestamp = (hit.timestamp() == Timestamps.UNKNOWN) ? null : Timestamps.format(hit.timestamp());
			return new Hit(hit.sessionId(), hit.entryId(), hit.role(), timestamp, hit.snippet(), hit.highlights(),
					hit.score());
		}

	}

	static SearchResponse of(SearchPage page) {
		return new SearchResponse(page.items().stream().map(Hit::of).toList(), page.nextCursor(), page.total(),
				page.partial());
	}

}

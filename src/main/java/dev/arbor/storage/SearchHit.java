package dev.arbor.storage;

import java.util.List;

/**
 * One entry that matches a search.
 *
 * @param sessionId the session it is in
 * @param entryId its id
 * @param role what it is ({@link SearchText#role()})
 * @param timestamp its {@code timestamp} in epoch milliseconds, or {@link dev.arbor.session.Timestamps#UNKNOWN}
 * @param snippet a stretch of its text around the first match
 * @param highlights the matched words in {@code snippet}: start (inclusive) and end (exclusive) character offsets
 * @param score how well it matches; higher is better, comparable only within one answer
 */
public record SearchHit(String sessionId, String entryId, String role, long timestamp, String snippet,
		List<int[]> highlights, double score) {

	public SearchHit {
		highlights = List.copyOf(highlights);
	}

	/** A hit whose snippet and highlights are made from the entry's text as {@link SearchSnippet} makes them. */
	public static SearchHit of(String sessionId, String entryId, String role, long timestamp, String text,
			SearchQuery query, double score) {
		SearchSnippet snippet = SearchSnippet.of(text, query.clauses());
		return new SearchHit(sessionId, entryId, role, timestamp, snippet.text(), snippet.highlights(), score);
	}

}

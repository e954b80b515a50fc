package dev.arbor.storage;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A page of search hits, best first.
 *
 * @param items the hits of this page
 * @param nextCursor where the next page starts ({@link SearchQuery#cursor(int)}), {@code null} on the last page
 * @param total how many entries match in all
 * @param partial whether the index is still being built, so that entries may be missing
 */
public record SearchPage(List<SearchHit> items, @Nullable String nextCursor, long total, boolean partial) {

	public SearchPage {
		items = List.copyOf(items);
	}

	/** Nothing found; {@code partial} when the index is not complete. */
	public static SearchPage empty(boolean partial) {
		return new SearchPage(List.of(), null, 0, partial);
	}

}

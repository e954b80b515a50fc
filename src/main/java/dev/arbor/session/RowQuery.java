package dev.arbor.session;

import java.util.Arrays;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * A search of the selector (docs/SESSION-FORMAT.md#the-selector-rows), as upstream's {@code TreeList.applyFilter}
 * searches: the query in lower case, split at JavaScript's whitespace, and every token a substring of the row's
 * searchable text in lower case, so {@code cfg} does not find {@code config}. Immutable.
 */
final class RowQuery {

	private static final RowQuery NONE = new RowQuery(new String[0]);

	private final String[] tokens;

	private RowQuery(String[] tokens) {
		this.tokens = tokens;
	}

	/** The query's tokens; a {@code null} or blank query matches every row. */
	static RowQuery parse(@Nullable String query) {
		if (query == null) {
			return NONE;
		}
		// JavaScript's whitespace, no-break spaces among it: upstream splits with /\s+/.
		String[] tokens = Arrays.stream(PiText.WHITESPACE.split(query.toLowerCase(Locale.ROOT)))
			.filter(token -> !token.isEmpty())
			.toArray(String[]::new);
		return (tokens.length > 0) ? new RowQuery(tokens) : NONE;
	}

	/** The tokens joined by single spaces: two queries with the same tokens search alike. */
	String normalized() {
		return String.join(" ", this.tokens);
	}

	boolean isEmpty() {
		return this.tokens.length == 0;
	}

	/** Whether every token is in a text already in lower case ({@link Locale#ROOT}). */
	boolean matchesLowerCase(String text) {
		for (String token : this.tokens) {
			if (!text.contains(token)) {
				return false;
			}
		}
		return true;
	}

}

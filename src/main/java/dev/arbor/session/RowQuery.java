package dev.arbor.session;

import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A search of the selector (docs/SESSION-FORMAT.md#the-selector-rows): the query split on whitespace, every token must
 * match, case-insensitively, either as a substring of the row's searchable text or as a subsequence
 * of the letters of one of its words, so {@code cfg} finds {@code config} but never picks letters from
 * two words. A word is a run of letters and digits. Immutable.
 */
final class RowQuery {

	private static final RowQuery NONE = new RowQuery(new String[0]);

	private static final Pattern WHITESPACE = Pattern.compile("(?U)\\s+");

	private final String[] tokens;

	private RowQuery(String[] tokens) {
		this.tokens = tokens;
	}

	/** The query's tokens; a {@code null} or blank query matches every row. */
	static RowQuery parse(@Nullable String query) {
		if (query == null) {
			return NONE;
		}
		// Unicode whitespace too: a query pasted from a browser may hold no-break spaces.
		String[] tokens = Arrays.stream(WHITESPACE.split(query.toLowerCase(Locale.ROOT)))
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

	/** Whether every token matches a text already in lower case ({@link Locale#ROOT}). */
	boolean matchesLowerCase(String text) {
		for (String token : this.tokens) {
			if (!text.contains(token) && !isSubsequenceOfOneWord(token, text)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether the token's characters appear in order inside one word of the text. Taking each match
	 * as early as possible is enough for a subsequence, so this is one pass over the text.
	 */
	static boolean isSubsequenceOfOneWord(String token, String text) {
		int matched = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (!Character.isLetterOrDigit(c)) {
				matched = 0;
			}
			else if (c == token.charAt(matched) && ++matched == token.length()) {
				return true;
			}
		}
		return false;
	}

}

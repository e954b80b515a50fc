package dev.arbor.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * The stretch of an entry's text a hit shows, and where the matched words are in it (docs/API.md#search): up to
 * {@value #LENGTH} characters that start a little before the first match, at a word's start, with line breaks and
 * tabs as spaces (one character for one, so that the offsets hold). Highlights are character offsets into the
 * snippet, never markup, so a client renders them safely; both stores make them here, from the same words.
 *
 * @param text the snippet
 * @param highlights start (inclusive) and end (exclusive) of each matched word or phrase, in order
 */
public record SearchSnippet(String text, List<int[]> highlights) {

	public static final int LENGTH = 200;

	/** Characters shown before the first match, at most. */
	private static final int BEFORE = 60;

	public static SearchSnippet of(String text, List<SearchQuery.Clause> clauses) {
		List<SearchTokens.Word> words = SearchTokens.words(text);
		List<int[]> matches = new ArrayList<>();
		for (int i = 0; i < words.size(); i++) {
			int end = matchEnd(words, i, clauses);
			if (end >= 0) {
				matches.add(new int[] { words.get(i).start(), words.get(end).end() });
			}
		}
		int start = 0;
		if (!matches.isEmpty() && matches.get(0)[0] > BEFORE) {
			start = matches.get(0)[0] - BEFORE;
			for (SearchTokens.Word word : words) {
				if (word.start() >= start) {
					start = word.start();
					break;
				}
			}
		}
		int end = Math.min(text.length(), start + LENGTH);
		if (end < text.length() && end > start && Character.isHighSurrogate(text.charAt(end - 1))) {
			end--;
		}
		List<int[]> highlights = new ArrayList<>();
		for (int[] match : matches) {
			if (match[0] >= start && match[1] <= end) {
				highlights.add(new int[] { match[0] - start, match[1] - start });
			}
		}
		char[] snippet = text.substring(start, end).toCharArray();
		for (int i = 0; i < snippet.length; i++) {
			if (snippet[i] == '\n' || snippet[i] == '\r' || snippet[i] == '\t') {
				snippet[i] = ' ';
			}
		}
		return new SearchSnippet(new String(snippet), highlights);
	}

	/** The last word of a clause that matches from word {@code i} on (the longest), or -1. */
	private static int matchEnd(List<SearchTokens.Word> words, int i, List<SearchQuery.Clause> clauses) {
		int best = -1;
		for (SearchQuery.Clause clause : clauses) {
			List<String> terms = clause.words();
			if (i + terms.size() > words.size()) {
				continue;
			}
			boolean matches = true;
			for (int k = 0; k < terms.size() && matches; k++) {
				String word = words.get(i + k).term();
				matches = clause.prefix() ? word.startsWith(terms.get(k)) : word.equals(terms.get(k));
			}
			if (matches) {
				best = Math.max(best, i + terms.size() - 1);
			}
		}
		return best;
	}

}

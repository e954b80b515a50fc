package dev.arbor.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * How search splits text into words, for the index and the query alike (docs/API.md#search): a word is a run of
 * letters and digits (Unicode), lower-cased, cut into pieces of at most {@value #MAX_WORD} characters; everything
 * else separates words. The Lucene index tokenizes with the same rule, and the PostgreSQL store gives its
 * {@code tsvector} the words made here, so that a query matches the same entries in both stores.
 */
public final class SearchTokens {

	/** Lucene's {@code CharTokenizer} cuts longer runs at this length. */
	public static final int MAX_WORD = 255;

	private SearchTokens() {
	}

	/** Whether a code point belongs to a word. */
	public static boolean isWordChar(int codePoint) {
		return Character.isLetterOrDigit(codePoint);
	}

	/** The words of a text, with where each is in it. */
	public static List<Word> words(String text) {
		List<Word> words = new ArrayList<>();
		int i = 0;
		int length = text.length();
		while (i < length) {
			int codePoint = text.codePointAt(i);
			if (!isWordChar(codePoint)) {
				i += Character.charCount(codePoint);
				continue;
			}
			int start = i;
			int chars = 0;
			while (i < length && chars < MAX_WORD) {
				codePoint = text.codePointAt(i);
				if (!isWordChar(codePoint)) {
					break;
				}
				i += Character.charCount(codePoint);
				chars += Character.charCount(codePoint);
			}
			words.add(new Word(lowerCase(text.substring(start, i)), start, i));
		}
		return words;
	}

	/** The words of a text joined by single spaces: what the PostgreSQL store gives {@code to_tsvector}. */
	public static String joined(String text) {
		StringBuilder joined = new StringBuilder();
		for (Word word : words(text)) {
			if (joined.length() > 0) {
				joined.append(' ');
			}
			joined.append(word.term());
		}
		return joined.toString();
	}

	/** Lower case by code point, as Lucene's {@code LowerCaseFilter}: no locale, one character for one. */
	static String lowerCase(String word) {
		StringBuilder lower = new StringBuilder(word.length());
		word.codePoints().map(Character::toLowerCase).forEach(lower::appendCodePoint);
		return lower.toString();
	}

	/**
	 * One word of a text.
	 *
	 * @param term the word, lower-cased
	 * @param start where it starts in the text (a character offset)
	 * @param end where it ends, exclusive
	 */
	public record Word(String term, int start, int end) {
	}

}

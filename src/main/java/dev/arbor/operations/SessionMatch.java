package dev.arbor.operations;

import java.util.List;

import dev.arbor.storage.InvalidRequestParameterException;
import dev.arbor.storage.SearchTokens;
import dev.arbor.storage.SessionInfo;
import org.jspecify.annotations.Nullable;

/**
 * The listing's {@code q} (docs/API.md#sessions): the sessions in whose name, title, first message or working
 * directory every word of it begins a word, without case, so that a list filtered as someone types finds
 * {@code flaky test} from {@code fla te}. Words are made as {@link SearchTokens} makes them.
 *
 * @param terms the words of {@code q}, lower-cased
 */
record SessionMatch(List<String> terms) {

	static final int MAX_LENGTH = 1_000;

	static final int MAX_WORDS = 16;

	/**
	 * Reads {@code q}.
	 *
	 * @throws InvalidRequestParameterException when it is too long, or has no word
	 */
	static SessionMatch parse(String q) {
		if (q.length() > MAX_LENGTH) {
			throw new InvalidRequestParameterException("q",
					"q is " + q.length() + " characters long; at most " + MAX_LENGTH + " are matched");
		}
		List<String> terms = SearchTokens.words(q).stream().map(SearchTokens.Word::term).distinct().toList();
		if (terms.isEmpty()) {
			throw new InvalidRequestParameterException("q", "q has no word to match (words are letters and digits)");
		}
		if (terms.size() > MAX_WORDS) {
			throw new InvalidRequestParameterException("q",
					"q has " + terms.size() + " words; at most " + MAX_WORDS + " are matched");
		}
		return new SessionMatch(terms);
	}

	boolean matches(SessionInfo info) {
		boolean[] found = new boolean[this.terms.size()];
		int missing = found.length;
		for (String field : new String[] { info.listing().name(), info.title(), info.listing().firstMessage(),
				info.header().cwd() }) {
			missing = find(field, found, missing);
			if (missing == 0) {
				return true;
			}
		}
		return false;
	}

	/** Marks the terms that begin a word of the field; how many are still missing. */
	private int find(@Nullable String field, boolean[] found, int missing) {
		if (field == null) {
			return missing;
		}
		for (SearchTokens.Word word : SearchTokens.words(field)) {
			for (int i = 0; i < found.length; i++) {
				if (!found[i] && word.term().startsWith(this.terms.get(i))) {
					found[i] = true;
					if (--missing == 0) {
						return 0;
					}
				}
			}
		}
		return missing;
	}

}

package dev.arbor.storage;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import dev.arbor.session.Ids;
import org.jspecify.annotations.Nullable;

/**
 * A search as both stores run it (docs/API.md#search), read and checked once here. The query {@code q} is a list of
 * clauses that an entry must all match: a word ({@code config}), a prefix ({@code conf*}, at least
 * {@value #MIN_PREFIX} characters before the star) or a phrase ({@code "exact words"}, the words next to each other
 * in that order). Words are made as {@link SearchTokens} makes them, so punctuation, Lucene's syntax
 * ({@code *:*}, {@code AND}, {@code ~}, {@code ^}) and SQL mean nothing and are never a syntax error; a query with no
 * word at all, or longer than {@value #MAX_LENGTH} characters or {@value #MAX_CLAUSES} clauses, is refused.
 *
 * @param clauses what an entry must match, each
 * @param sessionId only this session's entries
 * @param cwd only entries of sessions whose {@code cwd} is exactly this
 * @param roles only entries of these roles ({@link SearchText#role()}); empty for all
 * @param after only entries whose timestamp is at or after this (epoch milliseconds)
 * @param before only entries whose timestamp is before this (epoch milliseconds)
 * @param limit hits per page
 * @param offset hits of earlier pages, skipped
 */
public record SearchQuery(List<Clause> clauses, @Nullable String sessionId, @Nullable String cwd, List<String> roles,
		@Nullable Long after, @Nullable Long before, int limit, int offset) {

	public static final int MAX_LENGTH = 1_000;

	public static final int MAX_CLAUSES = 16;

	public static final int MIN_PREFIX = 2;

	public static final int MAX_LIMIT = 100;

	/** The deepest a cursor pages: deeper hits are not worth ranking. */
	public static final int MAX_OFFSET = 10_000;

	private static final Pattern ROLE = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,63}");

	private static final String CURSOR_PREFIX = "s1:";

	public SearchQuery {
		clauses = List.copyOf(clauses);
		roles = List.copyOf(roles);
	}

	/**
	 * Reads and checks a search's parameters.
	 *
	 * @throws InvalidRequestParameterException naming the parameter at fault
	 */
	public static SearchQuery parse(@Nullable String q, @Nullable String sessionId, @Nullable String cwd,
			@Nullable List<String> roles, @Nullable String after, @Nullable String before, int limit,
			@Nullable String cursor) {
		if (q == null || q.isBlank()) {
			throw new InvalidRequestParameterException("q", "q is required: the words to search for");
		}
		if (q.length() > MAX_LENGTH) {
			throw new InvalidRequestParameterException("q",
					"q is " + q.length() + " characters long; at most " + MAX_LENGTH + " are searched");
		}
		List<Clause> clauses = clauses(q);
		if (clauses.isEmpty()) {
			throw new InvalidRequestParameterException("q", "q has no word to search for (words are letters and digits)");
		}
		if (clauses.size() > MAX_CLAUSES) {
			throw new InvalidRequestParameterException("q",
					"q has " + clauses.size() + " words, prefixes and phrases; at most " + MAX_CLAUSES + " are searched");
		}
		if (sessionId != null && !Ids.isValid(sessionId)) {
			throw new InvalidRequestParameterException("sessionId", "sessionId is not of the form " + Ids.PATTERN);
		}
		List<String> roleList = new ArrayList<>();
		if (roles != null) {
			for (String role : roles) {
				for (String each : role.split(",", -1)) {
					if (!ROLE.matcher(each).matches()) {
						throw new InvalidRequestParameterException("role", "role '" + abbreviate(each)
								+ "' is not a role name (user, assistant, toolResult, bashExecution, "
								+ String.join(", ", SearchText.entryRoles()) + ", …)");
					}
					roleList.add(each);
				}
			}
		}
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new InvalidRequestParameterException("limit", "limit must be between 1 and " + MAX_LIMIT);
		}
		Long afterMillis = instant("after", after);
		Long beforeMillis = instant("before", before);
		return new SearchQuery(clauses, sessionId, (cwd == null || cwd.isEmpty()) ? null : cwd, roleList, afterMillis,
				beforeMillis, limit, offset(cursor));
	}

	/** The cursor of the page that starts after {@code hits} hits. */
	public String cursor(int hits) {
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString((CURSOR_PREFIX + hits).getBytes(StandardCharsets.US_ASCII));
	}

	/** The cursor of the next page, when the {@code total} hits go on past this one. */
	public @Nullable String nextCursor(long total) {
		long next = (long) this.offset + this.limit;
		return (next < total && next <= MAX_OFFSET) ? cursor((int) next) : null;
	}

	private static int offset(@Nullable String cursor) {
		if (cursor == null || cursor.isEmpty()) {
			return 0;
		}
		try {
			String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
			if (decoded.startsWith(CURSOR_PREFIX)) {
				int offset = Integer.parseInt(decoded.substring(CURSOR_PREFIX.length()));
				if (offset > 0 && offset <= MAX_OFFSET) {
					return offset;
				}
			}
		}
		catch (IllegalArgumentException ex) {
			// not one of ours: refused below
		}
		throw new InvalidRequestParameterException("cursor", "cursor is not one this API handed out");
	}

	private static @Nullable Long instant(String parameter, @Nullable String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		try {
			return OffsetDateTime.parse(value).toInstant().toEpochMilli();
		}
		catch (DateTimeParseException ex) {
			try {
				return Instant.parse(value).toEpochMilli();
			}
			catch (DateTimeParseException again) {
				throw new InvalidRequestParameterException(parameter, parameter + " '" + abbreviate(value)
						+ "' is not an ISO-8601 timestamp with an offset, such as 2026-05-01T12:00:00Z");
			}
		}
	}

	private static String abbreviate(String value) {
		return (value.length() <= 40) ? value : value.substring(0, 40) + "…";
	}

	/** Splits a query into words, prefixes and phrases; a quote left open runs to the end. */
	static List<Clause> clauses(String q) {
		List<Clause> clauses = new ArrayList<>();
		int i = 0;
		while (i < q.length()) {
			int quote = q.indexOf('"', i);
			String loose = (quote < 0) ? q.substring(i) : q.substring(i, quote);
			looseClauses(loose, clauses);
			if (quote < 0) {
				break;
			}
			int close = q.indexOf('"', quote + 1);
			String phrase = (close < 0) ? q.substring(quote + 1) : q.substring(quote + 1, close);
			List<String> words = SearchTokens.words(phrase).stream().map(SearchTokens.Word::term).toList();
			if (!words.isEmpty()) {
				clauses.add(new Clause(words, false));
			}
			i = (close < 0) ? q.length() : close + 1;
		}
		return clauses;
	}

	private static void looseClauses(String text, List<Clause> clauses) {
		for (SearchTokens.Word word : SearchTokens.words(text)) {
			boolean star = word.end() < text.length() && text.charAt(word.end()) == '*';
			if (star && word.term().length() < MIN_PREFIX) {
				throw new InvalidRequestParameterException("q", "q has the prefix '" + word.term() + "*', too short: a prefix has at least "
						+ MIN_PREFIX + " characters before its *");
			}
			clauses.add(new Clause(List.of(word.term()), star));
		}
	}

	/**
	 * One thing a matching entry holds.
	 *
	 * @param words one word, or the words of a phrase in order
	 * @param prefix whether the one word is a prefix of the entry's word
	 */
	public record Clause(List<String> words, boolean prefix) {

		public Clause {
			words = List.copyOf(words);
		}

		public boolean isPhrase() {
			return this.words.size() > 1;
		}

	}

}

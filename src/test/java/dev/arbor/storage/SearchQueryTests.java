package dev.arbor.storage;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** How a search's parameters are read: words, prefixes and phrases, filters, and each refusal naming its parameter. */
class SearchQueryTests {

	@Test
	void parseShouldReadWordsPrefixesAndPhrasesInOrder() {
		SearchQuery query = parse("Config conf* \"Exact  Words\" tail");
		assertThat(query.clauses()).containsExactly(new SearchQuery.Clause(List.of("config"), false),
				new SearchQuery.Clause(List.of("conf"), true),
				new SearchQuery.Clause(List.of("exact", "words"), false),
				new SearchQuery.Clause(List.of("tail"), false));
		assertThat(query.clauses().get(2).isPhrase()).isTrue();
		assertThat(query.offset()).isZero();
	}

	@Test
	void parseWhenQuoteIsLeftOpenShouldRunThePhraseToTheEnd() {
		assertThat(parse("a \"b c").clauses()).containsExactly(new SearchQuery.Clause(List.of("a"), false),
				new SearchQuery.Clause(List.of("b", "c"), false));
	}

	@Test
	void parseWhenQueryIsLuceneOrSqlSyntaxShouldReadOnlyItsWords() {
		assertThat(parse("AND( title:x~2^3 OR 1=1; --").clauses()).extracting(SearchQuery.Clause::words)
			.containsExactly(List.of("and"), List.of("title"), List.of("x"), List.of("2"), List.of("3"), List.of("or"),
					List.of("1"), List.of("1"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "*:*", "   ", "\"\"", "*", "?!", "()" })
	void parseWhenQueryHasNoWordShouldRefuseQ(String q) {
		assertRefused("q", () -> parse(q));
	}

	@Test
	void parseWhenQueryIsMissingOrTooLongOrHasTooManyClausesShouldRefuseQ() {
		assertRefused("q", () -> parse(null));
		assertRefused("q", () -> parse("word ".repeat(2_000)));
		assertRefused("q", () -> parse("w ".repeat(SearchQuery.MAX_CLAUSES + 1)));
		assertThat(parse("w ".repeat(SearchQuery.MAX_CLAUSES)).clauses()).hasSize(SearchQuery.MAX_CLAUSES);
	}

	@Test
	void parseWhenPrefixIsTooShortShouldRefuseQ() {
		assertRefused("q", () -> parse("a*"));
		assertThat(parse("ab*").clauses()).containsExactly(new SearchQuery.Clause(List.of("ab"), true));
	}

	@Test
	void parseShouldReadFilters() {
		SearchQuery query = SearchQuery.parse("x", "s-1", "/home/me", List.of("user,assistant", "toolResult"),
				"2026-05-01T12:00:00Z", "2026-05-01T14:00:00+02:00", 5, null);
		assertThat(query.sessionId()).isEqualTo("s-1");
		assertThat(query.cwd()).isEqualTo("/home/me");
		assertThat(query.roles()).containsExactly("user", "assistant", "toolResult");
		assertThat(query.after()).isEqualTo(1_777_636_800_000L);
		assertThat(query.before()).isEqualTo(1_777_636_800_000L);
		assertThat(query.limit()).isEqualTo(5);
	}

	@Test
	void parseWhenFilterIsBadShouldNameIt() {
		assertRefused("sessionId", () -> SearchQuery.parse("x", "../etc", null, null, null, null, 10, null));
		assertRefused("role", () -> SearchQuery.parse("x", null, null, List.of("user,"), null, null, 10, null));
		assertRefused("role", () -> SearchQuery.parse("x", null, null, List.of("*:*"), null, null, 10, null));
		assertRefused("after", () -> SearchQuery.parse("x", null, null, null, "yesterday", null, 10, null));
		assertRefused("before", () -> SearchQuery.parse("x", null, null, null, null, "2026-05-01", 10, null));
		assertRefused("limit", () -> SearchQuery.parse("x", null, null, null, null, null, 0, null));
		assertRefused("limit", () -> SearchQuery.parse("x", null, null, null, null, null, SearchQuery.MAX_LIMIT + 1, null));
	}

	@Test
	void cursorShouldRoundTripAndForeignCursorsShouldBeRefused() {
		SearchQuery first = parse("x");
		String next = first.nextCursor(25);
		assertThat(next).isNotNull();
		SearchQuery second = SearchQuery.parse("x", null, null, null, null, null, 10, next);
		assertThat(second.offset()).isEqualTo(10);
		assertThat(second.nextCursor(20)).isNull();
		assertThat(first.nextCursor(10)).isNull();
		for (String cursor : List.of("garbage!", first.cursor(0), first.cursor(SearchQuery.MAX_OFFSET + 1), "czE6LTE")) {
			assertRefused("cursor", () -> SearchQuery.parse("x", null, null, null, null, null, 10, cursor));
		}
	}

	private static SearchQuery parse(String q) {
		return SearchQuery.parse(q, null, null, null, null, null, 10, null);
	}

	private static void assertRefused(String parameter, Runnable parse) {
		assertThatExceptionOfType(InvalidRequestParameterException.class).isThrownBy(parse::run)
			.satisfies((ex) -> assertThat(ex.parameter()).isEqualTo(parameter))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(parameter));
	}

}

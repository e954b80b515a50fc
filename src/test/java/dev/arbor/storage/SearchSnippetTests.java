package dev.arbor.storage;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Snippets and their highlights: offsets that lie inside the snippet and cover exactly the matched words. */
class SearchSnippetTests {

	@Test
	void ofShouldHighlightWordsPrefixesAndPhrasesInTheSnippet() {
		String text = "Set the Config.\nThen configure the exact words here, not words exact.";
		SearchSnippet snippet = SearchSnippet.of(text, clauses("config conf* \"exact words\""));
		assertThat(snippet.text()).isEqualTo(text.replace('\n', ' '));
		assertThat(highlighted(snippet)).containsExactly("Config", "configure", "exact words");
	}

	@Test
	void ofWhenMatchIsFarInShouldStartShortlyBeforeItAtAWordAndKeepOffsetsInside() {
		String text = "filler ".repeat(100) + "needle " + "after ".repeat(100);
		SearchSnippet snippet = SearchSnippet.of(text, clauses("needle"));
		assertThat(snippet.text()).hasSizeLessThanOrEqualTo(SearchSnippet.LENGTH).startsWith("filler ").contains("needle");
		assertThat(highlighted(snippet)).containsExactly("needle");
		for (int[] highlight : snippet.highlights()) {
			assertThat(highlight[0]).isBetween(0, highlight[1]);
			assertThat(highlight[1]).isLessThanOrEqualTo(snippet.text().length());
		}
	}

	@Test
	void ofShouldLeaveOutMatchesPastTheSnippet() {
		String text = "needle " + "x ".repeat(300) + "needle";
		SearchSnippet snippet = SearchSnippet.of(text, clauses("needle"));
		assertThat(highlighted(snippet)).containsExactly("needle");
	}

	@Test
	void ofShouldNotEndInsideASurrogatePair() {
		String text = "needle " + "x".repeat(SearchSnippet.LENGTH - 8) + "\uD83D\uDE00 tail";
		SearchSnippet snippet = SearchSnippet.of(text, clauses("needle"));
		assertThat(Character.isHighSurrogate(snippet.text().charAt(snippet.text().length() - 1))).isFalse();
	}

	@Test
	void ofWhenNothingMatchesShouldStartAtTheTextAndHighlightNothing() {
		SearchSnippet snippet = SearchSnippet.of("nothing to see", clauses("absent"));
		assertThat(snippet.text()).isEqualTo("nothing to see");
		assertThat(snippet.highlights()).isEmpty();
	}

	private static List<SearchQuery.Clause> clauses(String q) {
		return SearchQuery.parse(q, null, null, null, null, null, 10, null).clauses();
	}

	private static List<String> highlighted(SearchSnippet snippet) {
		return snippet.highlights().stream().map((h) -> snippet.text().substring(h[0], h[1])).toList();
	}

}

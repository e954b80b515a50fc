package dev.arbor.storage;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The one word rule of search: runs of letters and digits, lower-cased, with their offsets, cut at a bounded length. */
class SearchTokensTests {

	@Test
	void wordsShouldBeRunsOfLettersAndDigitsLowerCasedWithOffsets() {
		assertThat(SearchTokens.words("Hello, wörld_42 ÉTÉ!")).containsExactly(new SearchTokens.Word("hello", 0, 5),
				new SearchTokens.Word("wörld", 7, 12), new SearchTokens.Word("42", 13, 15),
				new SearchTokens.Word("été", 16, 19));
	}

	@Test
	void wordsShouldKeepSupplementaryLettersWhole() {
		String text = "a \uD801\uDC00\uD801\uDC01 b"; // Deseret capital letters, two code units each
		assertThat(SearchTokens.words(text)).containsExactly(new SearchTokens.Word("a", 0, 1),
				new SearchTokens.Word("\uD801\uDC28\uD801\uDC29", 2, 6), new SearchTokens.Word("b", 7, 8));
	}

	@Test
	void wordsWhenRunIsLongShouldCutItIntoBoundedPieces() {
		List<SearchTokens.Word> words = SearchTokens.words("x".repeat(600));
		assertThat(words).extracting((word) -> word.end() - word.start()).containsExactly(255, 255, 90);
		assertThat(words.get(1).start()).isEqualTo(255);
	}

	@Test
	void wordsWhenTextHasNoWordShouldBeEmpty() {
		assertThat(SearchTokens.words("*:* -- (){}\n\t")).isEmpty();
		assertThat(SearchTokens.joined(" Two  WORDS! ")).isEqualTo("two words");
	}

}

package dev.arbor.storage;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** A leaf's tag: the id itself where it is a token, a bounded hash where it is not, one tag per leaf. */
class LeafTagTests {

	@ParameterizedTest
	@ValueSource(strings = { "a1b2c3d4", "01a2334c-2b34-717f-80fb-14085d9803f9", "entry_1.2:3", "Root", "roots" })
	void ofWhenIdIsAnApiIdShouldBeTheIdItself(String id) {
		assertThat(LeafTag.of(id)).isEqualTo(id);
	}

	@Test
	void ofWhenLeafIsNullShouldBeRootAndAnEntryNamedRootShouldNotBe() {
		assertThat(LeafTag.of(null)).isEqualTo("root");
		assertThat(LeafTag.of("root")).startsWith("~").isNotEqualTo("root");
	}

	@Test
	void ofWhenIdIsNoTokenShouldBeABoundedHashOfEtagCharacters() {
		for (String id : List.of("x\", \"y", "a".repeat(9000), "a\uD800b", "with space", "é", "", "~abc", "a/b", "a".repeat(129))) {
			assertThat(LeafTag.of(id)).as(id).matches("~[A-Za-z0-9_-]{43}");
			assertThat(LeafTag.of(id)).as("stable").isEqualTo(LeafTag.of(new String(id.toCharArray())));
		}
	}

	@Test
	void ofWhenIdsDifferOnlyInUnpairedSurrogatesShouldGiveDifferentTags() {
		List<String> ids = List.of("a\uD800", "a\uD801", "a\uDC00", "a?", "a\uFFFD", "a\uD800\uD800");
		Set<String> tags = ids.stream().map(LeafTag::of).collect(Collectors.toSet());
		assertThat(tags).hasSize(ids.size());
	}

	@Test
	void expectedLeafWhenGivenTheTagOfAnOddIdShouldMatchThatLeafOnly() {
		String odd = "x\", \"y";
		ExpectedLeaf expected = ExpectedLeaf.tagged(List.of(LeafTag.of(odd)));
		assertThat(expected.matches(odd)).isTrue();
		assertThat(expected.matches("x")).isFalse();
		assertThat(expected.matches(null)).isFalse();
		assertThat(ExpectedLeaf.tagged(List.of("root")).matches("root")).isFalse();
		assertThat(ExpectedLeaf.tagged(List.of("root")).matches(null)).isTrue();
	}

}

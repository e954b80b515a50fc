package dev.arbor.web;

import java.util.Arrays;

import dev.arbor.storage.ExpectedLeaf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code If-Match} as a leaf precondition (RFC 9110, section 13.1.1). */
class IfMatchTests {

	@Test
	void parseWhenAbsentBlankOrWildcardShouldAcceptAnyLeaf() {
		assertThat(IfMatch.parse(null)).isEqualTo(ExpectedLeaf.ANY);
		assertThat(IfMatch.parse("  ")).isEqualTo(ExpectedLeaf.ANY);
		assertThat(IfMatch.parse("*")).isEqualTo(ExpectedLeaf.ANY);
	}

	@Test
	void parseShouldReadEveryStrongTagAndRootAsTheNullLeaf() {
		assertThat(IfMatch.parse("\"a1b2c3d4\"")).isEqualTo(ExpectedLeaf.of("a1b2c3d4"));
		assertThat(IfMatch.parse("\"root\"")).isEqualTo(ExpectedLeaf.of(null));
		assertThat(IfMatch.parse(" \"a\" ,\t\"b\", ")).isEqualTo(ExpectedLeaf.oneOf(Arrays.asList("a", "b")));
	}

	@Test
	void parseWhenTagsAreWeakShouldMatchNoLeaf() {
		ExpectedLeaf weak = IfMatch.parse("W/\"a\"");
		assertThat(weak.any()).isFalse();
		assertThat(weak.matches("a")).isFalse();
		assertThat(IfMatch.parse("W/\"a\", \"b\"")).isEqualTo(ExpectedLeaf.oneOf(Arrays.asList("b")));
	}

	@ParameterizedTest
	@ValueSource(strings = { "a", "\"a", "\"a\" junk", "\"a\"\"b\"", "\"a\" \"b\"", ",", "W/", "W/a", "**", "\"a\";", "\"a\", *", "*, \"a\"" })
	void parseWhenHeaderHoldsAnythingButEntityTagsShouldRefuseIt(String header) {
		assertThatExceptionOfType(InvalidIfMatchException.class).isThrownBy(() -> IfMatch.parse(header));
	}

}

package dev.arbor.session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The header's version is read as upstream compares it: any number, and 1 without one
 * (docs/SESSION-FORMAT.md#versions-and-migrations).
 */
class SessionHeaderTests {

	@ParameterizedTest
	@CsvSource({ "1, 1", "2, 2", "3, 3", "3.0, 3", "2.5, 2", "1.5, 1", "0, 1", "-4, 1", "99999999999, 2147483647",
			"1e400, 2147483647", "4, 4" })
	void parseShouldReadAnyNumberAsUpstreamComparesIt(String version, int expected) {
		SessionHeader header = SessionHeader.parse(Json.parseObject(
				("{\"type\":\"session\",\"id\":\"s1\",\"version\":" + version + "}").getBytes()));
		assertThat(header.version()).isEqualTo(expected);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "null | 1", "true | 1", "false | 1", "'\"3\"' | 3", "'\"2\"' | 2", "'\"\"' | 1",
			"'\"three\"' | 3", "'{}' | 3" })
	void parseOfAVersionThatIsNoNumberShouldCoerceItAsJavaScriptDoes(String version, int expected) {
		SessionHeader header = SessionHeader.parse(Json.parseObject(
				("{\"type\":\"session\",\"id\":\"s1\",\"version\":" + version + "}").getBytes()));
		assertThat(header.version()).isEqualTo(expected);
	}

	@Test
	void parseWithoutAVersionShouldBeVersionOne() {
		assertThat(SessionHeader.parse(Json.parseObject("{\"type\":\"session\",\"id\":\"s1\"}".getBytes())).version())
			.isEqualTo(1);
	}

}

package dev.arbor.summary;

import java.nio.charset.StandardCharsets;

import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool-call values as upstream writes them: {@code JSON.stringify(JSON.parse(stored))}. Every expected value
 * here was printed by node 20 for the same stored text.
 */
class JsonStringifyTests {

	@Test
	void integersShouldBeWrittenAsStoredUpTo2To53() {
		assertThat(stringify("10")).isEqualTo("10");
		assertThat(stringify("-42")).isEqualTo("-42");
		assertThat(stringify("-0")).isEqualTo("0");
		assertThat(stringify("9007199254740991")).isEqualTo("9007199254740991");
	}

	@Test
	void largerIntegersShouldBeRoundedToADoubleAsJavaScriptReadsThem() {
		assertThat(stringify("9007199254740993")).isEqualTo("9007199254740992");
		assertThat(stringify("123456789012345678901")).isEqualTo("123456789012345680000");
	}

	@Test
	void decimalsShouldLoseTrailingZerosAndTakeTheShortestDigits() {
		assertThat(stringify("10.0")).isEqualTo("10");
		assertThat(stringify("-2.50")).isEqualTo("-2.5");
		assertThat(stringify("0.1")).isEqualTo("0.1");
		assertThat(stringify("0.3")).isEqualTo("0.3");
		assertThat(stringify("4.35")).isEqualTo("4.35");
		assertThat(stringify("-0.0")).isEqualTo("0");
	}

	@Test
	void exponentsShouldBeUsedFrom1e21UpAndBelowOneMillionth() {
		assertThat(stringify("1e3")).isEqualTo("1000");
		assertThat(stringify("1e20")).isEqualTo("100000000000000000000");
		assertThat(stringify("1e21")).isEqualTo("1e+21");
		assertThat(stringify("2e23")).isEqualTo("2e+23");
		assertThat(stringify("0.000001")).isEqualTo("0.000001");
		assertThat(stringify("-1.25e-5")).isEqualTo("-0.0000125");
		assertThat(stringify("1e-7")).isEqualTo("1e-7");
		assertThat(stringify("1.5e-7")).isEqualTo("1.5e-7");
		assertThat(stringify("123e-20")).isEqualTo("1.23e-18");
		assertThat(stringify("5e-324")).isEqualTo("5e-324");
		assertThat(stringify("1.7976931348623157e308")).isEqualTo("1.7976931348623157e+308");
	}

	@Test
	void numbersBeyondADoubleShouldBeNull() {
		assertThat(stringify("1e400")).isEqualTo("null");
		assertThat(stringify("-1e400")).isEqualTo("null");
	}

	@Test
	void controlCharactersShouldBeEscapedInLowerCaseHexAndNothingElseEscapedBeyondJson() {
		assertThat(stringify("\"\\u0001 \\u001b[31m \\u007f \\u00e9 </x> \\\" \\\\ \\/ \\n\\t\""))
			.isEqualTo("\"\\u0001 \\u001b[31m \u007f é </x> \\\" \\\\ / \\n\\t\"");
	}

	@Test
	void objectsAndArraysShouldBeCompactInTheirStoredOrder() {
		assertThat(stringify("{ \"b\" : [ 1.0, true, null, { \"\\u001f\": \"x\" } ], \"a\": {} , \"c\": [] }"))
			.isEqualTo("{\"b\":[1,true,null,{\"\\u001f\":\"x\"}],\"a\":{},\"c\":[]}");
	}

	private static String stringify(String storedValue) {
		String line = "{\"v\":" + storedValue + "}";
		JsonNode value = Json.parseObject(line.getBytes(StandardCharsets.UTF_8)).get("v");
		return JsonStringify.of(value);
	}

}

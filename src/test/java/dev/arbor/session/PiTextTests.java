package dev.arbor.session;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JavaScript's string rules as upstream's selector applies them; each expectation is what Node 20 prints for the same
 * expression.
 */
class PiTextTests {

	@Test
	void trimShouldTakeJavaScriptsWhitespaceNotJavas() {
		// "\u00a0\ufeff x \u2028".trim() is "x"; "\u001c x".trim() keeps the information separator
		assertThat(PiText.trim("\u00a0\ufeff x \u2028")).isEqualTo("x");
		assertThat(PiText.trim("\u001c x")).isEqualTo("\u001c x");
		assertThat(PiText.isBlank("\u00a0 \u3000")).isTrue();
		assertThat(PiText.isBlank("\u001c")).isFalse();
	}

	@Test
	void normalizeShouldTurnNewlinesAndTabsIntoSpacesButKeepCarriageReturnsInside() {
		assertThat(PiText.normalize("\n a\tb\r\nc \t")).isEqualTo("a b\r c");
	}

	@Test
	void stringifyShouldWriteAsJsonStringifyDoes() {
		JsonNode value = parse("{\"b\":1.50,\"a\":[true,null,\"q\\\"\\u0001\\n\\u00e9\"],\"big\":1e21,\"n\":-0.0000001,\"i\":10.0}");

		// JSON.stringify(JSON.parse(same text))
		assertThat(PiText.stringify(value))
			.isEqualTo("{\"b\":1.5,\"a\":[true,null,\"q\\\"\\u0001\\né\"],\"big\":1e+21,\"n\":-1e-7,\"i\":10}");
	}

	@Test
	void templateLiteralAndTruthinessShouldBeJavaScripts() {
		JsonNode value = parse("{\"s\":\"\",\"z\":0,\"o\":{},\"a\":[1,null,[2,3]],\"n\":null}");

		assertThat(PiText.string(value.get("missing"))).isEqualTo("undefined");
		assertThat(PiText.string(value.get("n"))).isEqualTo("null");
		assertThat(PiText.string(value.get("o"))).isEqualTo("[object Object]");
		assertThat(PiText.string(value.get("a"))).isEqualTo("1,,2,3");
		assertThat(PiText.part(value.get("n"))).isEmpty();
		assertThat(PiText.truthy(value.get("s"))).isFalse();
		assertThat(PiText.truthy(value.get("z"))).isFalse();
		assertThat(PiText.truthy(value.get("o"))).isTrue();
	}

	private static JsonNode parse(String json) {
		return Json.parseObject(json.getBytes(StandardCharsets.UTF_8));
	}

}

package dev.arbor.web.edge;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** RFC 3629's well-formed UTF-8, byte by byte. */
class Utf8BodyFilterTests {

	@Test
	void checkWhenTextIsUtf8ShouldPassEveryByte() {
		byte[] text = "{\"a\":\"ascii é ✓ 😀 \uFFFD \uD7FF \uE000 \uDBFF\uDFFF\"}".getBytes(StandardCharsets.UTF_8);
		assertThatCode(() -> check(text)).doesNotThrowAnyException();
	}

	@ParameterizedTest
	@ValueSource(strings = { "C0 AF", "C1 BF", "E0 80 AF", "E0 9F BF", "F0 80 80 AF", "F0 8F BF BF", "ED A0 80",
			"ED BF BF", "F4 90 80 80", "F5 80 80 80", "FF", "80", "BF", "C3", "E2 82", "F0 9F 98", "C3 28", "E2 28 A1" })
	void checkWhenASequenceIsNotWellFormedShouldRefuseIt(String hex) {
		String[] parts = hex.split(" ");
		byte[] bytes = new byte[parts.length + 2];
		bytes[0] = '"';
		for (int i = 0; i < parts.length; i++) {
			bytes[i + 1] = (byte) Integer.parseInt(parts[i], 16);
		}
		bytes[bytes.length - 1] = '"';
		assertThatExceptionOfType(NotUtf8Exception.class).isThrownBy(() -> check(bytes));
	}

	private static void check(byte[] bytes) throws NotUtf8Exception {
		Utf8BodyFilter.Utf8Check check = new Utf8BodyFilter.Utf8Check();
		for (byte b : bytes) {
			check.accept(b & 0xFF);
		}
		check.end();
	}

}

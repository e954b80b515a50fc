package dev.arbor.summary;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Map;

import dev.arbor.session.Json;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectWriter;

/**
 * A JSON value as upstream's {@code JSON.stringify} writes it after {@code JSON.parse}, for the tool calls of a
 * transcript: numbers are JavaScript numbers ({@code 10.0} is {@code 10}, {@code 1e21} is {@code 1e+21}, a
 * number too large for a double is {@code null}) and control characters are escaped in lower-case hex. Property
 * order is the stored order (JavaScript would move integer-like keys first).
 */
final class JsonStringify {

	/** Jackson escapes control characters in upper-case hex, JavaScript in lower case. */
	private static final ObjectWriter STRINGS = Json.MAPPER.writer().without(JsonWriteFeature.WRITE_HEX_UPPER_CASE);

	/** Integers up to 2^53 are doubles exactly; larger ones are rounded as JavaScript rounds them. */
	private static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

	private JsonStringify() {
	}

	static String of(JsonNode value) {
		StringBuilder out = new StringBuilder();
		append(value, out);
		return out.toString();
	}

	private static void append(JsonNode value, StringBuilder out) {
		if (value.isObject()) {
			out.append('{');
			String separator = "";
			for (Map.Entry<String, JsonNode> property : value.properties()) {
				out.append(separator).append(STRINGS.writeValueAsString(property.getKey())).append(':');
				append(property.getValue(), out);
				separator = ",";
			}
			out.append('}');
		}
		else if (value.isArray()) {
			out.append('[');
			String separator = "";
			for (JsonNode element : value) {
				out.append(separator);
				append(element, out);
				separator = ",";
			}
			out.append(']');
		}
		else if (value.isString()) {
			out.append(STRINGS.writeValueAsString(value.asString()));
		}
		else if (value.isNumber()) {
			out.append(number(value));
		}
		else {
			out.append(Json.toString(value)); // true, false, null
		}
	}

	/** ECMAScript's Number::toString: the shortest digits that read back as the same double. */
	static String number(JsonNode number) {
		if (number.isIntegralNumber() && number.canConvertToLong() && Math.abs(number.asLong()) <= MAX_SAFE_INTEGER) {
			return Long.toString(number.asLong());
		}
		double value = number.numberValue().doubleValue(); // asDouble() throws beyond the range of a double
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			return "null";
		}
		if (value == 0) {
			return "0"; // -0 too
		}
		BigDecimal exact = new BigDecimal(value);
		BigDecimal shortest = exact;
		for (int digits = 1; digits <= 17; digits++) {
			shortest = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
			if (shortest.doubleValue() == value) {
				break;
			}
		}
		shortest = shortest.stripTrailingZeros();
		String s = shortest.unscaledValue().abs().toString();
		int k = s.length();
		int n = k - shortest.scale(); // value = 0.s × 10^n
		String sign = (value < 0) ? "-" : "";
		if (k <= n && n <= 21) {
			return sign + s + "0".repeat(n - k);
		}
		if (0 < n && n <= 21) {
			return sign + s.substring(0, n) + "." + s.substring(n);
		}
		if (-6 < n && n <= 0) {
			return sign + "0." + "0".repeat(-n) + s;
		}
		int exponent = n - 1;
		String mantissa = (k == 1) ? s : s.charAt(0) + "." + s.substring(1);
		return sign + mantissa + "e" + ((exponent < 0) ? "-" : "+") + Math.abs(exponent);
	}

}

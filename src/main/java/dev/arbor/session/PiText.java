package dev.arbor.session;

import java.math.BigDecimal;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * JavaScript's string rules where the selector's rows must read as upstream's tree selector writes them
 * (docs/SESSION-FORMAT.md#the-selector-rows): its whitespace (what {@code \s}, {@code trim} and {@code split(/\s+/)}
 * take, which is not Java's), a value put in a template literal, a value's truthiness, and {@code JSON.stringify}.
 */
final class PiText {

	/** ECMAScript's WhiteSpace and LineTerminator: {@code \s} in a pattern, and what {@code trim} removes. */
	private static final String SPACE = "\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";

	static final Pattern WHITESPACE = Pattern.compile("[" + SPACE + "]+");

	private static final Pattern TRIM = Pattern.compile("^[" + SPACE + "]+|[" + SPACE + "]+$");

	private PiText() {
	}

	static String trim(String text) {
		return TRIM.matcher(text).replaceAll("");
	}

	static boolean isBlank(String text) {
		return trim(text).isEmpty();
	}

	/** Upstream's {@code normalize}: newlines and tabs become spaces (carriage returns stay), then trimmed. */
	static String normalize(String text) {
		return trim(text.replace('\n', ' ').replace('\t', ' '));
	}

	/** A value as a template literal writes it: a missing one as {@code undefined}. */
	static String string(@Nullable JsonNode value) {
		if (value == null || value.isMissingNode()) {
			return "undefined";
		}
		if (value.isString()) {
			return value.asString();
		}
		if (value.isObject()) {
			return "[object Object]";
		}
		if (value.isArray()) {
			StringBuilder joined = new StringBuilder();
			for (int i = 0; i < value.size(); i++) {
				JsonNode element = value.get(i);
				joined.append((i > 0) ? "," : "").append(element.isNull() ? "" : string(element));
			}
			return joined.toString();
		}
		if (value.isNumber()) {
			return number(value);
		}
		return value.isBoolean() ? String.valueOf(value.asBoolean()) : "null";
	}

	/** A part of {@code [...].join(" ")}: there a missing or null value is the empty string. */
	static String part(@Nullable JsonNode value) {
		return (value == null || value.isMissingNode() || value.isNull()) ? "" : string(value);
	}

	/** Whether {@code value || fallback} takes the value. */
	static boolean truthy(@Nullable JsonNode value) {
		if (value == null || value.isMissingNode() || value.isNull()) {
			return false;
		}
		if (value.isString()) {
			return !value.asString().isEmpty();
		}
		if (value.isBoolean()) {
			return value.asBoolean();
		}
		if (value.isNumber()) {
			double number = value.asDouble();
			return number != 0 && !Double.isNaN(number);
		}
		return true;
	}

	/** {@code JSON.stringify} of a parsed value: compact, members in their order, JavaScript's escapes. */
	static String stringify(JsonNode value) {
		StringBuilder out = new StringBuilder();
		write(value, out);
		return out.toString();
	}

	private static void write(JsonNode value, StringBuilder out) {
		if (value.isObject()) {
			out.append('{');
			boolean first = true;
			for (var member : value.properties()) {
				out.append(first ? "" : ",");
				first = false;
				quote(member.getKey(), out);
				out.append(':');
				write(member.getValue(), out);
			}
			out.append('}');
		}
		else if (value.isArray()) {
			out.append('[');
			for (int i = 0; i < value.size(); i++) {
				out.append((i > 0) ? "," : "");
				write(value.get(i), out);
			}
			out.append(']');
		}
		else if (value.isString()) {
			quote(value.asString(), out);
		}
		else if (value.isNumber()) {
			out.append(number(value));
		}
		else {
			out.append(value.isBoolean() ? String.valueOf(value.asBoolean()) : "null");
		}
	}

	private static void quote(String text, StringBuilder out) {
		out.append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\b' -> out.append("\\b");
				case '\f' -> out.append("\\f");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		out.append('"');
	}

	/** A JSON number as JavaScript prints the double it parses to. */
	static String number(JsonNode value) {
		double number = value.asDouble();
		return number(number);
	}

	static String number(double number) {
		if (Double.isNaN(number)) {
			return "NaN";
		}
		if (Double.isInfinite(number)) {
			return (number > 0) ? "Infinity" : "-Infinity";
		}
		if (number == Math.rint(number) && Math.abs(number) < 1e21) {
			return BigDecimal.valueOf(number).toBigInteger().toString();
		}
		double magnitude = Math.abs(number);
		if (magnitude >= 1e-6 && magnitude < 1e21) {
			return new BigDecimal(Double.toString(number)).stripTrailingZeros().toPlainString();
		}
		// Java writes 1.0E21 where JavaScript writes 1e+21: the mantissa without trailing zeros, a signed exponent.
		String[] parts = Double.toString(number).split("E");
		String mantissa = new BigDecimal(parts[0]).stripTrailingZeros().toPlainString();
		return mantissa + "e" + (parts[1].startsWith("-") ? "" : "+") + parts[1];
	}

}

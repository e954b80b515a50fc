package dev.arbor.session;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.ValueNode;

/**
 * The one JSON mapper of the engine and small helpers for reading entry fields. Entries keep their
 * own bytes; this is only used where a request needs a field that is not indexed.
 */
public final class Json {

	/**
	 * Makes the nodes of JSON that Arbor reads (request bodies, hook answers): a decimal it could not write back as
	 * a line of a session file, one whose exponent is beyond nine digits as it would be written, is refused as the
	 * {@link StreamReadException} of malformed JSON, where Jackson would hold it and the entry made of it would fail
	 * when its line is checked.
	 */
	public static final JsonNodeFactory NODES = new KeptNumbers();

	/**
	 * Plain mapper: keeps property order and writes compact JSON. Decimals are read as {@code BigDecimal} with
	 * their trailing zeros, so that a number keeps its digits through a rewrite (as a {@code double},
	 * {@code 0.1000000000000000055} would lose them and {@code 1e400} would become the string "Infinity"), and only
	 * those that fit a line ({@link #NODES}).
	 */
	public static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
		.nodeFactory(NODES)
		.build();

	private Json() {
	}

	/** Parses one JSON object; anything else is an {@link IllegalArgumentException}. */
	public static ObjectNode parseObject(byte[] utf8) {
		return parseObject(utf8, 0, utf8.length);
	}

	public static ObjectNode parseObject(byte[] utf8, int offset, int length) {
		JsonNode node;
		try {
			node = MAPPER.readTree(utf8, offset, length);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("Not valid JSON: " + ex.getOriginalMessage(), ex);
		}
		catch (NumberFormatException ex) { // an exponent beyond an int: Jackson does not wrap BigDecimal's refusal
			throw new IllegalArgumentException("Not valid JSON: " + ex.getMessage(), ex);
		}
		if (!(node instanceof ObjectNode object)) {
			throw new IllegalArgumentException("Not a JSON object");
		}
		return object;
	}

	public static ObjectNode newObject() {
		return JsonNodeFactory.instance.objectNode();
	}

	/** Compact UTF-8 bytes of a node, as written to a session file. */
	public static byte[] toBytes(JsonNode node) {
		return MAPPER.writeValueAsBytes(node);
	}

	public static String toString(JsonNode node) {
		return new String(toBytes(node), StandardCharsets.UTF_8);
	}

	/** A string as a JSON string literal, quotes included. */
	public static String quote(String text) {
		return MAPPER.writeValueAsString(text);
	}

	/** The field's text when it is a JSON string, else {@code null}. */
	public static @Nullable String text(JsonNode node, String field) {
		JsonNode value = node.get(field);
		return (value != null && value.isString()) ? value.asString() : null;
	}

	/** The field's value unless it is absent or JSON {@code null}. */
	public static @Nullable JsonNode value(JsonNode node, String field) {
		JsonNode value = node.get(field);
		return (value == null || value.isNull()) ? null : value;
	}

	private static final class KeptNumbers extends JsonNodeFactory {

		private static final long serialVersionUID = 1L;

		@Override
		public ValueNode numberNode(@Nullable BigDecimal value) {
			if (value != null && !JsonNumber.fits(value)) {
				long exponent = (long) value.precision() - 1 - value.scale();
				throw new StreamReadException("a number whose exponent is beyond " + JsonNumber.MAX_EXPONENT_DIGITS
						+ " digits cannot be kept (E" + ((exponent > 0) ? "+" : "") + exponent + ")");
			}
			return super.numberNode(value);
		}

	}

}

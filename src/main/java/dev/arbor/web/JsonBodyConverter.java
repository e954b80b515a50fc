package dev.arbor.web;

import java.io.IOException;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring's JSON converter, with a number that cannot be held refused like any other unreadable body. Bodies keep
 * their decimals as {@code BigDecimal} ({@link WebConfiguration}); Jackson fails on an exponent beyond an
 * {@code int} ({@code 1E+2147483648}) with a {@link NumberFormatException} that Spring, which only translates
 * Jackson's own exceptions, would let through as a 500.
 */
class JsonBodyConverter extends JacksonJsonHttpMessageConverter {

	JsonBodyConverter(JsonMapper mapper) {
		super(mapper);
	}

	@Override
	public Object read(ResolvableType type, HttpInputMessage inputMessage, @Nullable Map<String, Object> hints)
			throws IOException {
		try {
			return super.read(type, inputMessage, hints);
		}
		catch (NumberFormatException ex) {
			throw new HttpMessageNotReadableException("The body holds a number out of range: " + ex.getMessage(), ex,
					inputMessage);
		}
	}

}

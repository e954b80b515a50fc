package dev.arbor.web;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.AbstractHttpMessageConverter;

/**
 * Spring MVC's YAML converter, set so that none is detected: it reads and writes nothing. The API speaks JSON;
 * Jackson 2's YAML module is on the class path for springdoc alone. Detected, it became a converter that answered
 * a YAML body with a 500 (it cannot make Jackson 3's trees) and, registering Jackson 2's Kotlin module, loaded
 * Kotlin reflection at every start.
 */
final class NoYamlConverter extends AbstractHttpMessageConverter<Object> {

	NoYamlConverter() {
		super(MediaType.APPLICATION_YAML);
	}

	@Override
	protected boolean supports(Class<?> clazz) {
		return false;
	}

	@Override
	protected Object readInternal(Class<?> clazz, HttpInputMessage inputMessage) {
		throw new UnsupportedOperationException("Arbor reads no YAML");
	}

	@Override
	protected void writeInternal(Object value, HttpOutputMessage outputMessage) {
		throw new UnsupportedOperationException("Arbor writes no YAML");
	}

}

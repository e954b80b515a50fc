package dev.arbor.web;

import java.beans.PropertyEditorSupport;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.arbor.operations.ContextFormat;
import dev.arbor.session.RowFilter;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * How query parameter values read, the same for every operation. Text is not trimmed, so an id with a space stays
 * invalid; an empty text parameter is absent ({@code ?cursor=} is no cursor, as a form leaves an empty field out).
 * Everything else takes exactly its documented spelling: {@code true} or {@code false}, a decimal integer (no sign
 * but {@code -}, no {@code 0x}, no blanks), the API's names of filters and formats ({@code no-tools}, {@code llm};
 * editors, because a converter that refuses a value lets Spring fall back to the enum's constant names). For the
 * same reason a controller gives a filter or format its default itself rather than by
 * {@code @RequestParam(defaultValue)}: springdoc converts that default with the conversion service, which knows
 * only the constant names, and warns at start-up. How often a parameter may appear, and whether it may be empty,
 * {@code QueryParameterCheck} says.
 */
@ControllerAdvice
class RequestParameters {

	private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,18}");

	@InitBinder
	void bind(WebDataBinder binder) {
		binder.registerCustomEditor(String.class, editor(text -> text));
		binder.registerCustomEditor(boolean.class, editor(RequestParameters::parseBoolean));
		binder.registerCustomEditor(Boolean.class, editor(RequestParameters::parseBoolean));
		binder.registerCustomEditor(int.class, editor(RequestParameters::parseInt));
		binder.registerCustomEditor(Integer.class, editor(RequestParameters::parseInt));
		binder.registerCustomEditor(RowFilter.class, editor(RowFilter::fromName));
		binder.registerCustomEditor(ContextFormat.class, editor(ContextFormat::fromName));
	}

	private static Boolean parseBoolean(String text) {
		return switch (text) {
			case "true" -> Boolean.TRUE;
			case "false" -> Boolean.FALSE;
			default -> throw new IllegalArgumentException("'" + text + "' is not a boolean: expected true or false");
		};
	}

	private static Integer parseInt(String text) {
		long value = DECIMAL.matcher(text).matches() ? Long.parseLong(text) : Long.MIN_VALUE;
		if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
			throw new IllegalArgumentException("'" + text + "' is not an integer: expected decimal digits");
		}
		return (int) value;
	}

	private static PropertyEditorSupport editor(Function<String, Object> parse) {
		return new PropertyEditorSupport() {
			@Override
			public void setAsText(String text) {
				setValue(text.isEmpty() ? null : parse.apply(text));
			}
		};
	}

}

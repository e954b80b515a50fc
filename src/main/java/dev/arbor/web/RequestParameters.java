package dev.arbor.web;

import java.beans.PropertyEditorSupport;
import java.util.function.Function;

import dev.arbor.navigation.ContextFormat;
import dev.arbor.session.RowFilter;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * How query parameters bind. An empty one is absent ({@code ?cursor=} is no cursor, as a form leaves an empty field
 * out); values are not trimmed, so an id with a space stays invalid. Filters and formats take exactly the API's
 * names ({@code no-tools}, {@code llm}): editors, because a converter that refuses a value lets Spring fall back to
 * the enum's own constant names ({@code NO_TOOLS}). For the same reason a controller gives such a parameter its
 * default itself rather than by {@code @RequestParam(defaultValue)}: springdoc converts that default with the
 * conversion service, which knows only the constant names, and warns at start-up.
 */
@ControllerAdvice
class RequestParameters {

	@InitBinder
	void bind(WebDataBinder binder) {
		binder.registerCustomEditor(String.class, editor(text -> text));
		binder.registerCustomEditor(RowFilter.class, editor(RowFilter::fromName));
		binder.registerCustomEditor(ContextFormat.class, editor(ContextFormat::fromName));
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

package dev.arbor.web;

import java.beans.PropertyEditorSupport;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * {@code ?cursor=} means the same as no {@code cursor}: an empty query parameter is absent, as a form leaves an
 * empty field out, instead of an invalid id or cursor. Values are not trimmed: an id with a space stays invalid.
 */
@ControllerAdvice
class EmptyParametersAreAbsent {

	@InitBinder
	void emptyStringsAreNull(WebDataBinder binder) {
		binder.registerCustomEditor(String.class, new PropertyEditorSupport() {
			@Override
			public void setAsText(String text) {
				setValue(text.isEmpty() ? null : text);
			}
		});
	}

}

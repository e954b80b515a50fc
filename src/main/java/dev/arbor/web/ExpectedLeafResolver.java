package dev.arbor.web;

import dev.arbor.storage.ExpectedLeaf;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives a controller method the {@link ExpectedLeaf} of its request's {@code If-Match}, so that every mutation
 * takes its precondition the same way; the OpenAPI document lists the header for each such operation.
 */
class ExpectedLeafResolver implements HandlerMethodArgumentResolver {

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return parameter.getParameterType() == ExpectedLeaf.class;
	}

	@Override
	public ExpectedLeaf resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
			NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
		String[] lines = webRequest.getHeaderValues(HttpHeaders.IF_MATCH);
		// Several lines are one list (RFC 9110, section 5.3): a second line is read, not ignored.
		return IfMatch.parse((lines != null) ? String.join(", ", lines) : null);
	}

}

package dev.arbor.web.edge;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Every query parameter of an operation at most once, and those that are not text never empty: Spring would join
 * {@code ?cwd=a&cwd=b} into {@code a,b}, take the first of {@code ?dryRun=true&dryRun=false}, and put the default in
 * place of {@code ?skipMalformedLines=}, so that a request could mean something other than it says. How the values
 * themselves read, {@link RequestParameters} says.
 */
class QueryParameterCheck implements HandlerInterceptor {

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (handler instanceof HandlerMethod method) {
			for (MethodParameter parameter : method.getMethodParameters()) {
				RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
				if (annotation != null) {
					check(request, name(annotation, parameter), parameter.getParameterType() == String.class);
				}
			}
		}
		return true;
	}

	private static void check(HttpServletRequest request, String name, boolean text) {
		String[] values = request.getParameterValues(name);
		if (values == null) {
			return;
		}
		if (values.length > 1) {
			throw new QueryParameterException(name, name + " is given " + values.length + " times; give it once");
		}
		if (!text && values[0].isEmpty()) {
			throw new QueryParameterException(name, name + " is empty: give it a value or leave it out");
		}
	}

	private static String name(RequestParam annotation, MethodParameter parameter) {
		String name = annotation.name();
		return name.isEmpty() ? parameter.getParameterName() : name;
	}

}

package dev.arbor.web;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Refuses a body whose {@code Content-Type} is a range ({@code *}/{@code *}, {@code application/*}) with a 415: a
 * range names no format to read the body in, and Spring, meeting one where it reads a body, fails with an assertion
 * that would otherwise be answered as a 500.
 */
class WildcardContentTypeFilter extends OncePerRequestFilter {

	private final HandlerExceptionResolver problems;

	/**
	 * @param problems answers the refusal as the controllers' errors are answered
	 */
	WildcardContentTypeFilter(HandlerExceptionResolver problems) {
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String contentType = request.getContentType();
		if (contentType != null && isRange(contentType)) {
			this.problems.resolveException(request, response, null, new HttpMediaTypeNotSupportedException(
					"Content-Type " + contentType + " is a range, not a media type", List.of()));
			return;
		}
		chain.doFilter(request, response);
	}

	private static boolean isRange(String contentType) {
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			return type.isWildcardType() || type.isWildcardSubtype();
		}
		catch (InvalidMediaTypeException ex) {
			return false; // Spring answers an unreadable Content-Type with a 415 itself
		}
	}

}

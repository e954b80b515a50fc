package dev.arbor.web.edge;

import java.io.IOException;

import dev.arbor.session.Ids;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Refuses paths with parameters ({@code /sessions/abc;x}). Jetty and Spring strip {@code ;x} and would act on
 * session {@code abc}, a DELETE included; docs/API.md#requests-and-responses says what is not an id gets a 400, and
 * {@code abc;x} is none.
 */
class PathParameterFilter extends OncePerRequestFilter {

	private final HandlerExceptionResolver problems;

	/**
	 * @param problems answers the refusal as the controllers' errors are answered
	 */
	PathParameterFilter(HandlerExceptionResolver problems) {
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getRequestURI().indexOf(';') >= 0) {
			this.problems.resolveException(request, response, null, new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"Paths take no parameters (';'): ids match " + Ids.PATTERN));
			return;
		}
		chain.doFilter(request, response);
	}

}

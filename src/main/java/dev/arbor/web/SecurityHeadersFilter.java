package dev.arbor.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The headers that keep a browser from misreading or framing what the API sends: no MIME sniffing, no framing, no
 * referrer, a content policy that allows nothing (the API serves data, never pages; Swagger UI excepted, which
 * needs its scripts and styles), and HSTS on requests that came over HTTPS.
 */
class SecurityHeadersFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		response.setHeader("X-Content-Type-Options", "nosniff");
		response.setHeader("X-Frame-Options", "DENY");
		response.setHeader("Referrer-Policy", "no-referrer");
		if (!request.getRequestURI().startsWith("/swagger-ui")) {
			response.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
		}
		if (request.isSecure()) {
			response.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
		}
		chain.doFilter(request, response);
	}

}

package dev.arbor.web.edge;

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
 * <p>
 * The explorer's page is the one page Arbor serves itself. Its policy lets it load its own scripts, styles and API
 * and nothing else: no inline script or style, no {@code eval}, no other origin. Images are allowed as {@code data:}
 * URLs too, because that is how an entry's images (base64 in the session file) are shown.
 */
class SecurityHeadersFilter extends OncePerRequestFilter {

	static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'";

	static final String EXPLORER_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
			+ "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		response.setHeader("X-Content-Type-Options", "nosniff");
		response.setHeader("X-Frame-Options", "DENY");
		response.setHeader("Referrer-Policy", "no-referrer");
		String path = request.getRequestURI();
		if (ExplorerPaths.isPage(path)) {
			response.setHeader("Content-Security-Policy", EXPLORER_POLICY);
		}
		else if (!path.startsWith("/swagger-ui")) {
			response.setHeader("Content-Security-Policy", API_POLICY);
		}
		if (request.isSecure()) {
			response.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
		}
		chain.doFilter(request, response);
	}

}

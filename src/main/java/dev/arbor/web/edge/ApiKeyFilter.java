package dev.arbor.web.edge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * With {@code arbor.security.api-keys} set, lets a request in only with {@code Authorization: Bearer <key>} for one
 * of the keys (401 otherwise, before anything is read or written); health, the API documentation and the explorer's
 * own files (it asks for a key itself, and holds no session data) stay open, so that probes and people exploring the
 * API need no key.
 * <p>
 * A browser's {@code EventSource} cannot send headers, so the event streams also take the key as
 * {@code ?access_token=} (RFC 6750, section 2.3), and only they: elsewhere a key in the URL would end up in logs and
 * histories for nothing.
 */
class ApiKeyFilter extends OncePerRequestFilter {

	/** Open paths, spelled exactly: anything with dot segments, encodings or parameters is not open. */
	private static final Pattern OPEN = Pattern.compile("/actuator/health(/[A-Za-z0-9-]+)*"
			+ "|/v3/api-docs(\\.yaml|/[A-Za-z0-9_-]+)*|/swagger-ui\\.html|/swagger-ui/[A-Za-z0-9_-]+(\\.[A-Za-z0-9]+)+");

	private static final Pattern EVENT_STREAMS = Pattern.compile("/events|/sessions/[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}/events");

	private static final String BEARER = "Bearer ";

	private final List<byte[]> keyDigests;

	private final HandlerExceptionResolver problems;

	/**
	 * @param keys the keys that let a request in; never empty (no filter without keys)
	 * @param problems answers the refusal as the controllers' errors are answered
	 */
	ApiKeyFilter(List<String> keys, HandlerExceptionResolver problems) {
		this.keyDigests = keys.stream().map(ApiKeyFilter::digest).toList();
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String path = request.getRequestURI();
		if (OPEN.matcher(path).matches() || ExplorerPaths.isFile(path)) {
			chain.doFilter(request, response);
			return;
		}
		String key = presentedKey(request, path);
		if (key == null) {
			this.problems.resolveException(request, response, null, new UnauthorizedException(false,
					"This API needs a key: send Authorization: Bearer <key>"));
			return;
		}
		if (!isKnown(key)) {
			this.problems.resolveException(request, response, null,
					new UnauthorizedException(true, "The API key is not valid"));
			return;
		}
		chain.doFilter(request, response);
	}

	/** After an error dispatch the request was let in already (or refused, and this is the refusal's page). */
	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return true;
	}

	private static @Nullable String presentedKey(HttpServletRequest request, String path) {
		String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
		if (authorization != null) {
			return authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
					? authorization.substring(BEARER.length()).trim() : "";
		}
		if ("GET".equals(request.getMethod()) && EVENT_STREAMS.matcher(path).matches()) {
			return request.getParameter("access_token");
		}
		return null;
	}

	/** Compares digests in constant time: neither the key's length nor its first differing byte shows. */
	private boolean isKnown(String key) {
		byte[] presented = digest(key);
		boolean known = false;
		for (byte[] digest : this.keyDigests) {
			known |= MessageDigest.isEqual(digest, presented);
		}
		return known;
	}

	private static byte[] digest(String key) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is part of every JDK", ex);
		}
	}

}

package dev.arbor.web.edge;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * {@code Content-Type} and {@code Accept} settled before an operation runs, so that neither fails it half way:
 * <ul>
 * <li>a {@code Content-Type} that is a range ({@code *}/{@code *}, {@code application/*}) names no format to read
 * the body in: 415 (Spring, meeting one where it reads a body, fails with an assertion, a 500);</li>
 * <li>an {@code Accept} that cannot be read, or lists more media types than Spring reads: 406, as a problem document
 * (Spring answers it with an empty body, having nothing the header accepts to write the problem in);</li>
 * <li>a {@code charset} in {@code Accept} is dropped: Arbor writes UTF-8 only, as JSON between systems must be
 * (RFC 8259, section 8.1), and Spring, asked for another, would fail writing the answer, after a write had been
 * made.</li>
 * </ul>
 */
class MediaTypeHeadersFilter extends OncePerRequestFilter {

	/** As many as Spring sorts when it negotiates; it refuses a longer list. */
	static final int MAX_ACCEPTED = 50;

	private final HandlerExceptionResolver problems;

	/**
	 * @param problems answers the refusal as the controllers' errors are answered
	 */
	MediaTypeHeadersFilter(HandlerExceptionResolver problems) {
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
		List<String> accept = Collections.list(request.getHeaders(HttpHeaders.ACCEPT));
		if (accept.isEmpty()) {
			chain.doFilter(request, response);
			return;
		}
		List<MediaType> accepted;
		try {
			accepted = MediaType.parseMediaTypes(accept);
		}
		catch (InvalidMediaTypeException ex) {
			notAcceptable(request, response, "Accept cannot be read: " + ex.getMessage());
			return;
		}
		if (accepted.size() > MAX_ACCEPTED) {
			notAcceptable(request, response, "Accept lists " + accepted.size() + " media types, more than the "
					+ MAX_ACCEPTED + " read");
			return;
		}
		boolean charsets = accepted.stream().anyMatch(type -> type.getParameter("charset") != null);
		chain.doFilter(charsets ? new AcceptRewritten(request, withoutCharsets(accepted)) : request, response);
	}

	/** Answered in the problem format, whatever the unreadable {@code Accept} asked for. */
	private void notAcceptable(HttpServletRequest request, HttpServletResponse response, String reason) {
		this.problems.resolveException(new AcceptRewritten(request, null), response, null,
				new HttpMediaTypeNotAcceptableException(reason));
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

	private static String withoutCharsets(List<MediaType> accepted) {
		return MediaType.toString(accepted.stream().map(type -> {
			Map<String, String> parameters = new LinkedHashMap<>(type.getParameters());
			parameters.remove("charset");
			return new MediaType(type.getType(), type.getSubtype(), parameters);
		}).toList());
	}

	/** The request with another {@code Accept}, or none. */
	private static final class AcceptRewritten extends HttpServletRequestWrapper {

		private final @Nullable String accept;

		AcceptRewritten(HttpServletRequest request, @Nullable String accept) {
			super(request);
			this.accept = accept;
		}

		@Override
		public @Nullable String getHeader(String name) {
			return isAccept(name) ? this.accept : super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			if (!isAccept(name)) {
				return super.getHeaders(name);
			}
			return (this.accept != null) ? Collections.enumeration(List.of(this.accept)) : Collections.emptyEnumeration();
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			List<String> names = Collections.list(super.getHeaderNames());
			if (this.accept == null) {
				names.removeIf(AcceptRewritten::isAccept);
			}
			return Collections.enumeration(names);
		}

		private static boolean isAccept(String name) {
			return HttpHeaders.ACCEPT.equalsIgnoreCase(name);
		}

	}

}

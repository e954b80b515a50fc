package dev.arbor.web.edge;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;

/** What the limits on request bodies (slots, memory) count as a request with a body. */
final class RequestBodies {

	private RequestBodies() {
	}

	/** A {@code Content-Length} above zero, or a body of unknown length ({@code Transfer-Encoding}). */
	static boolean present(HttpServletRequest request) {
		return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
	}

}

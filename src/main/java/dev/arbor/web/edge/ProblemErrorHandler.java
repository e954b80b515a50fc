package dev.arbor.web.edge;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import dev.arbor.session.Json;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.unit.DataSize;

/**
 * Jetty's error page, as a problem document instead of HTML, so that clients parse one error format: for what
 * Jetty refuses before the application sees it (a request line or header it cannot parse, {@code %00} or an
 * ambiguous encoding in the path, a header over the limit: {@link #badMessageError}) and for any {@code sendError}
 * without a body ({@link #generateResponse}). Errors the API raises never get here; they are answered by
 * {@link ProblemDetailsAdvice}. Set on the server and on the servlet context, so that no error page Jetty writes
 * itself is left in HTML.
 */
class ProblemErrorHandler extends ErrorHandler {

	private static final String PROBLEM_JSON = MediaType.APPLICATION_PROBLEM_JSON_VALUE + ";charset=utf-8";

	/** How much of a request's head Jetty reads ({@code server.max-http-request-header-size}), for the details. */
	private final String headLimit;

	ProblemErrorHandler(DataSize headLimit) {
		this.headLimit = (headLimit.toBytes() % 1024 == 0) ? headLimit.toKilobytes() + " KB" : headLimit.toBytes() + " bytes";
	}

	/** Every method gets its problem document, not only GET and POST (Jetty's default): a DELETE too. */
	@Override
	public boolean errorPageForMethod(String method) {
		return true;
	}

	@Override
	protected void generateResponse(Request request, Response response, int code, @Nullable String message,
			@Nullable Throwable cause, Callback callback) {
		response.getHeaders().put(HttpHeader.CONTENT_TYPE, PROBLEM_JSON);
		if (code == 501) {
			// What follows a method the server does not implement (a CONNECT's tunnel) is no request it can read.
			response.getHeaders().put(HttpHeader.CONNECTION, "close");
		}
		response.write(true, problem(code, message), callback);
	}

	/** What Jetty answers a request it could not parse into one: it has no request to hand to a handler. */
	@Override
	public ByteBuffer badMessageError(int status, @Nullable String reason, HttpFields.Mutable fields) {
		fields.put(HttpHeader.CONTENT_TYPE, PROBLEM_JSON);
		return problem(status, reason);
	}

	private ByteBuffer problem(int status, @Nullable String message) {
		ProblemType type = ProblemType.forStatus(status);
		String problem = Json.toString(Json.newObject()
			.put("type", type.type().toString())
			.put("title", type.title())
			.put("status", status)
			.put("detail", detail(status, message)));
		return ByteBuffer.wrap(problem.getBytes(StandardCharsets.UTF_8));
	}

	private String detail(int status, @Nullable String message) {
		if (status == 501) {
			return "The server does not implement the request's method or transfer coding: methods are those of the "
					+ "API (GET, HEAD, POST, PUT, DELETE, OPTIONS), transfer codings chunked only";
		}
		if (status == 505) {
			return "The server speaks HTTP/1.1 (and 1.0): the request line names another version";
		}
		if (status >= 500) { // nothing internal goes out, only what the status says
			HttpStatus known = HttpStatus.resolve(status);
			return (known != null) ? known.getReasonPhrase() : ProblemType.forStatus(status).title();
		}
		if (status == 414) { // Jetty reads the request line within the same limit as the headers
			return "The request line (method, path and query) is longer than the server reads: at most " + this.headLimit
					+ " with the headers (server.max-http-request-header-size)";
		}
		if (status == 431) {
			return "The request's headers are larger than the server reads: at most " + this.headLimit
					+ " with the request line (server.max-http-request-header-size)";
		}
		if ("Authority!=Host".equals(message)) {
			return "The server refused the request before the API saw it: its Host header is not the authority its "
					+ "target names (RFC 9112, section 3.2)";
		}
		if (message != null && message.contains("Transfer-Encoding")) {
			return "The server refused the request before the API saw it: " + message
					+ " (the only transfer coding it takes is chunked)";
		}
		String reason = (message != null && !message.isBlank()) ? message : "the request cannot be accepted";
		return "The server refused the request before the API saw it: " + reason
				+ " (a path or header it does not accept, such as an encoded NUL or backslash, or one too long)";
	}

}

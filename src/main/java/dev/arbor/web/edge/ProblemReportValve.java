package dev.arbor.web.edge;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import dev.arbor.session.Json;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.databind.node.ObjectNode;

/**
 * Tomcat's error page, as a problem document instead of HTML, so that clients parse one error format: for what
 * Tomcat refuses before the application sees it ({@code %00} or a bad encoding in the path, a request line over the
 * limit) and for any {@code sendError} without a body. Errors the API raises never get here; they are answered by
 * {@link ProblemDetailsAdvice}. Public because Tomcat makes it from its class name.
 */
public class ProblemReportValve extends ErrorReportValve {

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		// As ErrorReportValve: not for success, not over a body already written, and once only.
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		ProblemType type = ProblemType.forStatus(status);
		ObjectNode problem = Json.newObject()
			.put("type", type.type().toString())
			.put("title", type.title())
			.put("status", status)
			.put("detail", detail(status, (response.getMessage() != null || throwable == null) ? response.getMessage()
					: throwable.getMessage()));
		try {
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.setCharacterEncoding(StandardCharsets.UTF_8.name());
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(Json.toString(problem));
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// The client is gone or the response is closed: there is nobody left to tell.
		}
	}

	private static String detail(int status, @Nullable String message) {
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
		String reason = (message != null && !message.isBlank()) ? message : "the request cannot be accepted";
		return "The server refused the request before the API saw it: " + reason
				+ " (a path or header it does not accept, such as an encoded NUL or backslash, or one too long)";
	}

}

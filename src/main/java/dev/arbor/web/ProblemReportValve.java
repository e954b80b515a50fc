package dev.arbor.web;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import dev.arbor.session.Json;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.MediaType;
import tools.jackson.databind.node.ObjectNode;

/**
 * Tomcat's error page for what it refuses before the application sees it ({@code %00} or a bad encoding in the
 * path, a request line over the limit), as a problem document instead of HTML: clients parse one error format.
 * Errors of the application never get here; they are answered by {@link ProblemDetailsAdvice}. Public because
 * Tomcat makes it from its class name.
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
			.put("detail", (status < 500) ? "The server refused the request before the API saw it: a path or header it "
					+ "cannot accept, such as an encoded NUL or backslash, or a request line that is too long" : type.title());
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

}

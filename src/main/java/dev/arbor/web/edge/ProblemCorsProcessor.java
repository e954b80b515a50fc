package dev.arbor.web.edge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import dev.arbor.session.Json;
import org.springframework.http.MediaType;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.cors.DefaultCorsProcessor;
import tools.jackson.databind.node.ObjectNode;

/** Spring's CORS checks, with the refusal of a cross-origin request as a problem document like every other error. */
class ProblemCorsProcessor extends DefaultCorsProcessor {

	@Override
	protected void rejectRequest(ServerHttpResponse response) throws IOException {
		ProblemType type = ProblemType.CORS_REJECTED;
		ObjectNode problem = Json.newObject()
			.put("type", type.type().toString())
			.put("title", type.title())
			.put("status", type.status().value())
			.put("detail", "This origin, method or header is not allowed to call the API from a browser "
					+ "(arbor.security.cors.allowed-origins)");
		response.setStatusCode(type.status());
		response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		response.getBody().write(Json.toString(problem).getBytes(StandardCharsets.UTF_8));
		response.flush();
	}

}

package dev.arbor.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.arbor.ArborApplication;
import dev.arbor.session.Json;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole Arbor application that a test starts and stops itself, to start another on the same storage: what a
 * restart keeps. Not a Spring test context, which would be cached and never stop.
 *
 * @param context the running application
 * @param port where it listens
 */
record RestartedApp(ConfigurableApplicationContext context, int port) implements AutoCloseable {

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	/** Starts Arbor on a free port with the given {@code name=value} properties. */
	static RestartedApp start(String... properties) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ArborApplication.class)
			.properties("server.port=0", "logging.level.root=WARN")
			.properties(properties)
			.run();
		return new RestartedApp(context, ((WebServerApplicationContext) context).getWebServer().getPort());
	}

	/** Posts a JSON body and expects {@code 201 Created}; returns the answer. */
	JsonNode post(String path, String body) throws Exception {
		HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
		return Json.MAPPER.readTree(response.body());
	}

	/** Appends a user message; returns the stored entry. */
	JsonNode appendUser(String sessionId, String text) throws Exception {
		return post("/sessions/" + sessionId + "/entries",
				"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}");
	}

	@Override
	public void close() {
		this.context.close();
	}

}

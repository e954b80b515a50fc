package dev.arbor.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that send the headers of a request and part of its body, then stall, over raw sockets: they must
 * not take the workers that answer health and reads, and each ends within {@code arbor.api.body-timeout}. Few
 * worker threads here, so that a handful of stalled bodies would take them all without the limits.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class SlowBodyTests {

	static final int WORKERS = 24;

	static final int MAX_BODY_REQUESTS = 8;

	static final Duration BODY_TIMEOUT = Duration.ofSeconds(2);

	@TempDir
	static Path dataDir;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", dataDir::toString);
		registry.add("server.jetty.threads.max", () -> WORKERS);
		registry.add("arbor.api.max-body-requests", () -> MAX_BODY_REQUESTS);
		registry.add("arbor.api.max-body-requests-per-client", () -> 1000);
		registry.add("arbor.api.body-timeout", () -> BODY_TIMEOUT.toMillis() + "ms");
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	@Test
	void healthAndReadsWhenBodiesStallShouldAnswerAndStalledBodiesShouldEnd() throws IOException {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "hello");
		List<Upload> stalled = new ArrayList<>();
		try {
			for (int i = 0; i < 5 * WORKERS; i++) {
				Upload upload = Upload.start(this.port, "/sessions/" + sessionId + "/entries", 1000);
				upload.send("{\"type\":\"mess");
				stalled.add(upload);
			}
			for (int i = 0; i < 3; i++) {
				assertThat(RawHttp.get(this.port, "/actuator/health", Map.of()).status()).isEqualTo(200);
				assertThat(RawHttp.get(this.port, "/sessions/" + sessionId, Map.of()).status()).isEqualTo(200);
			}
			List<String> answers = new ArrayList<>();
			for (Upload upload : stalled) {
				answers.add(upload.answer(BODY_TIMEOUT.multipliedBy(5)));
			}
			assertThat(answers).as("every stalled body ends, refused or timed out").doesNotContainNull();
			assertThat(answers.stream().filter(answer -> answer.startsWith("HTTP/1.1 503 ")))
				.as("beyond max-body-requests, refused at once")
				.hasSizeGreaterThanOrEqualTo(stalled.size() - MAX_BODY_REQUESTS)
				.allSatisfy(answer -> assertThat(answer).contains("Retry-After: 1", "Connection: close",
						"application/problem+json", "\"type\":\"https://arbor.dev/problems/server-busy\""));
			assertThat(answers).allSatisfy(answer -> assertThat(answer)
				.matches("(?s)|HTTP/1\\.1 (503|408|400) .*"));
		}
		finally {
			for (Upload upload : stalled) {
				upload.close();
			}
		}
	}

	@Test
	void appendWhenBodyTricklesPastTheTimeoutShouldReturn408AndCloseTheConnection() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String body = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"" + "x".repeat(100) + "\"}}";
		try (Upload upload = Upload.start(this.port, "/sessions/" + sessionId + "/entries", body.length())) {
			long pause = BODY_TIMEOUT.toMillis() / 4;
			for (int sent = 0; sent < body.length(); sent += 10) {
				if (!upload.maybeSend(body.substring(sent, Math.min(body.length(), sent + 10)))) {
					break; // the server gave up on the body and closed the connection
				}
				Thread.sleep(pause);
			}
			String answer = upload.answer(BODY_TIMEOUT.multipliedBy(5));
			assertThat(answer).startsWith("HTTP/1.1 408 ")
				.contains("Connection: close", "\"type\":\"https://arbor.dev/problems/request-timeout\"");
		}
	}

	@Test
	void appendWhenBodyArrivesSlowlyWithinTheTimeoutShouldSucceed() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String body = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"steady\"}}";
		try (Upload upload = Upload.start(this.port, "/sessions/" + sessionId + "/entries", body.length())) {
			int pieces = 5;
			int size = (body.length() + pieces - 1) / pieces;
			for (int sent = 0; sent < body.length(); sent += size) {
				upload.send(body.substring(sent, Math.min(body.length(), sent + size)));
				Thread.sleep(BODY_TIMEOUT.toMillis() / (3 * pieces));
			}
			assertThat(upload.answer(BODY_TIMEOUT.multipliedBy(5))).startsWith("HTTP/1.1 201 ");
		}
	}

	/** A {@code POST} written by hand, so that its body can stall or trickle. */
	static final class Upload implements AutoCloseable {

		private final Socket socket;

		private Upload(Socket socket) {
			this.socket = socket;
		}

		static Upload start(int port, String path, int contentLength) throws IOException {
			Upload upload = new Upload(new Socket("localhost", port));
			upload.send("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
					+ "Content-Length: " + contentLength + "\r\n\r\n");
			return upload;
		}

		void send(String text) throws IOException {
			OutputStream out = this.socket.getOutputStream();
			out.write(text.getBytes(StandardCharsets.UTF_8));
			out.flush();
		}

		/** Sends unless the server closed the connection already. */
		boolean maybeSend(String text) {
			try {
				send(text);
				return true;
			}
			catch (IOException ex) {
				return false;
			}
		}

		/**
		 * What the server answered ("" if it closed the connection without an answer), or null if it did neither
		 * within the time given.
		 */
		String answer(Duration within) throws IOException {
			this.socket.setSoTimeout((int) within.toMillis());
			ByteArrayOutputStream answer = new ByteArrayOutputStream();
			InputStream in = this.socket.getInputStream();
			byte[] buffer = new byte[4096];
			try {
				int n;
				while ((n = in.read(buffer)) > 0) {
					answer.write(buffer, 0, n);
				}
			}
			catch (SocketTimeoutException ex) {
				if (answer.size() == 0) {
					return null;
				}
			}
			catch (SocketException ex) {
				// reset by the server: it closed the connection with the body unread
			}
			return answer.toString(StandardCharsets.UTF_8);
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}

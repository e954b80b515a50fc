package dev.arbor.web;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.arbor.events.EventStreams;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What event streams may take (docs/ARCHITECTURE.md#event-streams): at most {@code arbor.events.max-streams} open,
 * the next refused with 503 and {@code Retry-After}; and no thread each, however many clients stop reading.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@DirtiesContext
class EventStreamLimitsTests {

	private static final int MAX_STREAMS = 40;

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.storage.fsync", () -> "never");
		registry.add("arbor.events.max-streams", () -> MAX_STREAMS);
		// a client's leaving is noticed by the next write to it
		registry.add("arbor.events.heartbeat", () -> "200ms");
		registry.add("arbor.events.max-pending", () -> "100000");
		registry.add("arbor.events.max-pending-bytes", () -> "1GB");
	}

	@Autowired
	RestTestClient client;

	@Autowired
	EventStreams streams;

	@Autowired
	MeterRegistry meters;

	@LocalServerPort
	int port;

	@Test
	void streamsBeyondTheCapShouldBeRefusedWithRetryAfterUntilOneEnds() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		List<SseClient> open = new ArrayList<>();
		try {
			for (int i = 0; i < MAX_STREAMS; i++) {
				open.add(SseClient.open(this.port, "/sessions/" + sessionId + "/events", null));
			}
			double refusedBefore = this.meters.get("arbor.sse.refused").counter().count();
			for (String path : List.of("/events", "/sessions/" + sessionId + "/events")) {
				HttpResponse<String> refused = HTTP.send(HttpRequest
					.newBuilder(URI.create("http://localhost:" + this.port + path))
					.header("Accept", "text/event-stream")
					.build(), HttpResponse.BodyHandlers.ofString());
				assertThat(refused.statusCode()).isEqualTo(503);
				assertThat(refused.headers().firstValue("Retry-After")).hasValue("5");
				assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
				assertThat(refused.body()).contains("\"type\":\"https://arbor.dev/problems/server-busy\"")
					.contains("arbor.events.max-streams");
			}
			assertThat(this.meters.get("arbor.sse.refused").counter().count()).isEqualTo(refusedBefore + 2);
			assertThat(this.streams.size()).isEqualTo(MAX_STREAMS);

			open.remove(0).close();
			awaitStreams(MAX_STREAMS - 1);
			open.add(SseClient.open(this.port, "/events", null));
			assertThat(this.streams.size()).isEqualTo(MAX_STREAMS);
		}
		finally {
			for (SseClient stream : open) {
				stream.close();
			}
		}
		awaitStreams(0);
	}

	@Test
	void clientsThatStopReadingShouldHoldNoThreadWhileTheOthersGetEveryEvent() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String big = "x".repeat(64 * 1024);
		List<Socket> stalled = new ArrayList<>();
		try (SseClient reader = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			for (int i = 0; i < 30; i++) {
				stalled.add(stall("/sessions/" + sessionId + "/events"));
			}
			awaitStreams(31);
			for (int i = 0; i < 60; i++) {
				String id = ApiSessions.appendUser(this.client, sessionId, i + " " + big);
				List<SseClient.Event> received = reader.until("leaf_changed");
				assertThat(received.get(0).data().get("entry").get("id").asString()).isEqualTo(id);
			}
			// every stalled client is behind by megabytes, none was dropped, and none holds a thread
			assertThat(this.streams.size()).isEqualTo(31);
			long writing = Thread.getAllStackTraces()
				.values()
				.stream()
				.filter(stack -> Arrays.stream(stack)
					.anyMatch(frame -> frame.getClassName().startsWith(EventStreams.class.getPackageName() + ".EventStream")))
				.count();
			// at most the delivery pool, writing a heartbeat just now; a thread per stalled client before
			assertThat(writing).isLessThanOrEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()));
		}
		finally {
			for (Socket socket : stalled) {
				socket.close();
			}
		}
	}

	/** Opens a stream and never reads it, with a small receive buffer so that it stalls soon. */
	private Socket stall(String path) throws Exception {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(4096);
		socket.connect(new InetSocketAddress("localhost", this.port));
		OutputStream request = socket.getOutputStream();
		request.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		request.flush();
		return socket;
	}

	private void awaitStreams(int count) throws InterruptedException {
		for (int i = 0; i < 1000 && this.streams.size() != count; i++) {
			TimeUnit.MILLISECONDS.sleep(10);
		}
		assertThat(this.streams.size()).as("streams open (%s refused so far)",
				this.meters.get("arbor.sse.refused").counter().count())
			.isEqualTo(count);
	}

}

package dev.arbor.web;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.arbor.events.EventStreams;
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
 * A client that stops reading its stream is dropped once it falls {@code arbor.events.max-pending} events behind;
 * writers and the other subscribers carry on meanwhile.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class SlowSubscriberTests {

	private static final int ENTRIES = 500;

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.events.max-pending", () -> "100");
		registry.add("arbor.storage.fsync", () -> "never");
	}

	@Autowired
	RestTestClient client;

	@Autowired
	EventStreams streams;

	@LocalServerPort
	int port;

	@Test
	void aClientThatStopsReadingShouldBeDroppedWhileWritersAndOthersGoOn() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String big = "x".repeat(64 * 1024);
		try (Socket stalled = new Socket()) {
			stalled.setReceiveBufferSize(4096);
			stalled.connect(new java.net.InetSocketAddress("localhost", this.port));
			OutputStream request = stalled.getOutputStream();
			request.write(("GET /sessions/" + sessionId + "/events HTTP/1.1\r\nHost: localhost\r\n"
					+ "Accept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			request.flush();
			try (SseClient reader = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
				awaitStreams(2);
				// in step with the reading client, so that only the stalled one falls behind
				for (int i = 0; i < ENTRIES; i++) {
					String id = ApiSessions.appendUser(this.client, sessionId, i + " " + big);
					List<SseClient.Event> received = reader.until("leaf_changed");
					assertThat(received.get(0).data().get("entry").get("id").asString()).isEqualTo(id);
				}
				awaitStreams(1);
			}
			// the server ended the stalled stream: what was buffered ends with the last chunk of the response
			stalled.setSoTimeout(10_000);
			InputStream in = stalled.getInputStream();
			byte[] tail = new byte[7];
			int read;
			while ((read = in.read()) != -1) {
				System.arraycopy(tail, 1, tail, 0, tail.length - 1);
				tail[tail.length - 1] = (byte) read;
				if (new String(tail, StandardCharsets.US_ASCII).equals("\r\n0\r\n\r\n")) {
					break;
				}
			}
			assertThat(new String(tail, StandardCharsets.US_ASCII)).isEqualTo("\r\n0\r\n\r\n");
		}
	}

	private void awaitStreams(int count) throws InterruptedException {
		for (int i = 0; i < 1000 && this.streams.size() != count; i++) {
			TimeUnit.MILLISECONDS.sleep(10);
		}
		assertThat(this.streams.size()).isEqualTo(count);
	}

}

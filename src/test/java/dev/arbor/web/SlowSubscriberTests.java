package dev.arbor.web;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that stops reading its stream is dropped once it falls {@code arbor.events.max-pending} events behind,
 * with a last {@code resync}; writers and the other subscribers carry on meanwhile.
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

	@Autowired
	MeterRegistry meters;

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
			// the server ended the stalled stream: what was buffered ends with a resync, and the response ends
			stalled.setSoTimeout(10_000);
			String end = lastBytesOfBody(new DataInputStream(stalled.getInputStream()), 1000);
			assertThat(end)
				// right after the frame it was in, and without an id: EventSource reconnects from the last one
				.containsPattern("\n\nevent:resync\ndata:\\{\"sessionId\":\"" + sessionId
						+ "\",\"lastEventId\":\\d+,\"reason\":\"too-slow\"}\n\n");
		}
		assertThat(this.meters.get("arbor.sse.dropped").counter().count()).isEqualTo(1);
	}

	/** Reads a chunked response to its end, and gives the last bytes of its body. */
	private static String lastBytesOfBody(DataInputStream in, int count) throws IOException {
		while (!line(in).isEmpty()) {
			// status line and headers
		}
		byte[] tail = new byte[0];
		int size;
		while ((size = Integer.parseInt(line(in), 16)) > 0) {
			byte[] chunk = new byte[size];
			in.readFully(chunk);
			line(in);
			byte[] both = new byte[tail.length + size];
			System.arraycopy(tail, 0, both, 0, tail.length);
			System.arraycopy(chunk, 0, both, tail.length, size);
			tail = Arrays.copyOfRange(both, Math.max(0, both.length - count), both.length);
		}
		return new String(tail, StandardCharsets.UTF_8);
	}

	private static String line(DataInputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int read;
		while ((read = in.read()) != '\n') {
			if (read == -1) {
				throw new EOFException("the response ended before its last chunk");
			}
			if (read != '\r') {
				line.append((char) read);
			}
		}
		return line.toString();
	}

	private void awaitStreams(int count) throws InterruptedException {
		for (int i = 0; i < 1000 && this.streams.size() != count; i++) {
			TimeUnit.MILLISECONDS.sleep(10);
		}
		assertThat(this.streams.size()).isEqualTo(count);
	}

}

package dev.arbor.web;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.arbor.events.HookAnswer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share of body slots one remote address has ({@code arbor.api.max-body-requests-per-client},
 * docs/ARCHITECTURE.md#the-edge), over raw keep-alive connections from one address written as wrk writes them: a
 * request holds its slot while its body arrives, so a client that never has more connections open than its share is
 * never refused, and one that stalls more bodies than its share is.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Import(ScriptedHook.Registered.class)
class BodyRequestSlotsApiTests {

	static final int PER_CLIENT = 2;

	static final Duration BODY_TIMEOUT = Duration.ofSeconds(2);

	static final String MESSAGE = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"again\"}}";

	@TempDir
	static Path dataDir;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", dataDir::toString);
		registry.add("arbor.api.max-body-requests-per-client", () -> PER_CLIENT);
		registry.add("arbor.api.body-timeout", () -> BODY_TIMEOUT.toMillis() + "ms");
	}

	@Autowired
	RestTestClient client;

	@Autowired
	ScriptedHook hook;

	@LocalServerPort
	int port;

	@AfterEach
	void resetHook() {
		this.hook.reset();
	}

	@Test
	void appendsWhenAsManyConnectionsAsTheShareEachWaitForTheirAnswerShouldNeverBeRefused() throws Exception {
		List<String> sessions = new ArrayList<>();
		for (int i = 0; i < PER_CLIENT; i++) {
			sessions.add(ApiSessions.create(this.client));
		}
		ConcurrentMap<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
		long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
		ExecutorService threads = Executors.newFixedThreadPool(PER_CLIENT);
		try {
			List<Future<?>> loops = new ArrayList<>();
			for (String sessionId : sessions) {
				loops.add(threads.submit(() -> {
					try (Connection connection = new Connection(this.port)) {
						while (System.nanoTime() < end) {
							int status = connection.post("/sessions/" + sessionId + "/entries", MESSAGE);
							statuses.computeIfAbsent(status, key -> new AtomicInteger()).incrementAndGet();
						}
					}
					return null;
				}));
			}
			for (Future<?> loop : loops) {
				loop.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(statuses).containsOnlyKeys(201);
	}

	/**
	 * What wrk does at the end of a run, and a client that times out and retries: it closes connections whose
	 * requests the server is still working on, then opens new ones. Those requests have their bodies, so they no
	 * longer count against the client's share, however long the server still works on them.
	 */
	@Test
	void appendsWhenTheClientClosedConnectionsWhoseRequestsStillRunShouldBeAdmitted() throws Exception {
		CountDownLatch asked = new CountDownLatch(PER_CLIENT);
		CountDownLatch answer = new CountDownLatch(1);
		this.hook.onTree = preparation -> {
			asked.countDown();
			await(answer);
			return HookAnswer.NONE;
		};
		List<String> others = new ArrayList<>();
		for (int i = 0; i < PER_CLIENT; i++) {
			others.add(ApiSessions.create(this.client));
		}
		List<Connection> abandoned = new ArrayList<>();
		try {
			for (int i = 0; i < PER_CLIENT; i++) {
				String sessionId = ApiSessions.create(this.client);
				String first = ApiSessions.appendUser(this.client, sessionId, "first");
				ApiSessions.appendUser(this.client, sessionId, "second");
				Connection connection = new Connection(this.port);
				abandoned.add(connection);
				connection.send("/sessions/" + sessionId + "/navigate", "{\"targetId\":\"" + first + "\"}");
			}
			assertThat(asked.await(20, TimeUnit.SECONDS)).as("every navigation read its body and asks the hook")
				.isTrue();
			for (Connection connection : abandoned) {
				connection.close();
			}
			for (String sessionId : others) {
				try (Connection connection = new Connection(this.port)) {
					assertThat(connection.post("/sessions/" + sessionId + "/entries", MESSAGE)).isEqualTo(201);
				}
			}
		}
		finally {
			answer.countDown();
			abandoned.forEach(Connection::close);
		}
	}

	@Test
	void appendsWhenMoreBodiesStallThanTheShareShouldRefuseTheRestAndKeepTheOthers() throws IOException {
		String sessionId = ApiSessions.create(this.client);
		List<SlowBodyTests.Upload> stalled = new ArrayList<>();
		try {
			for (int i = 0; i < PER_CLIENT + 1; i++) {
				SlowBodyTests.Upload upload = SlowBodyTests.Upload.start(this.port, "/sessions/" + sessionId + "/entries",
						MESSAGE.length());
				upload.send(MESSAGE.substring(0, 10));
				stalled.add(upload);
			}
			List<String> answers = new ArrayList<>();
			for (SlowBodyTests.Upload upload : stalled) {
				answers.add(upload.answer(BODY_TIMEOUT.multipliedBy(5)));
			}
			assertThat(answers.stream().filter(answer -> answer.startsWith("HTTP/1.1 429 ")))
				.singleElement()
				.satisfies(answer -> assertThat(answer).contains("Retry-After: 1", "Connection: close",
						"\"type\":\"https://arbor.dev/problems/too-many-requests\""));
			assertThat(answers.stream().filter(answer -> answer.startsWith("HTTP/1.1 408 ")))
				.as("the share's bodies were taken and waited for")
				.hasSize(PER_CLIENT);
		}
		finally {
			for (SlowBodyTests.Upload upload : stalled) {
				upload.close();
			}
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * One keep-alive connection: sends a request, reads its whole answer, and opens a new connection when the server
	 * closed this one, as wrk does.
	 */
	static final class Connection implements AutoCloseable {

		private final int port;

		private Socket socket;

		private InputStream in;

		Connection(int port) throws IOException {
			this.port = port;
			open();
		}

		private void open() throws IOException {
			this.socket = new Socket("localhost", this.port);
			this.socket.setSoTimeout(20_000);
			this.in = new BufferedInputStream(this.socket.getInputStream());
		}

		/** Sends a {@code POST} of JSON and returns at once. */
		void send(String path, String body) throws IOException {
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			OutputStream out = this.socket.getOutputStream();
			out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
					+ "Content-Length: " + bytes.length + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.write(bytes);
			out.flush();
		}

		/** Sends a {@code POST} of JSON, reads the whole answer and returns its status. */
		int post(String path, String body) throws IOException {
			send(path, body);
			int status = Integer.parseInt(line().substring(9, 12));
			long length = 0;
			boolean chunked = false;
			boolean close = false;
			String header;
			while (!(header = line().toLowerCase(Locale.ROOT)).isEmpty()) {
				if (header.startsWith("content-length:")) {
					length = Long.parseLong(header.substring("content-length:".length()).trim());
				}
				chunked |= header.startsWith("transfer-encoding:") && header.contains("chunked");
				close |= header.startsWith("connection:") && header.contains("close");
			}
			if (chunked) {
				int size;
				while ((size = Integer.parseInt(line().trim(), 16)) > 0) {
					this.in.readNBytes(size);
					line();
				}
				line();
			}
			else {
				this.in.readNBytes((int) length);
			}
			if (close) {
				close();
				open();
			}
			return status;
		}

		private String line() throws IOException {
			ByteArrayOutputStream line = new ByteArrayOutputStream();
			int b;
			while ((b = this.in.read()) != '\n') {
				if (b < 0) {
					throw new IOException("Connection closed by the server after: " + line);
				}
				if (b != '\r') {
					line.write(b);
				}
			}
			return line.toString(StandardCharsets.ISO_8859_1);
		}

		@Override
		public void close() {
			try {
				this.socket.close();
			}
			catch (IOException ex) {
				// nothing to do: the connection is given up either way
			}
		}

	}

}

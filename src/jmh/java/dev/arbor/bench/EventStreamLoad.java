package dev.arbor.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load client of {@code bench/event-streams.sh} (docs/BENCHMARKS.md#event-streams-benchevent-streamssh): many event
 * streams on one server, read by one selector thread (so that the client, not the server, is cheap per stream).
 * JDK only; run as {@code java -cp target/test-classes dev.arbor.bench.EventStreamLoad <base URL> <server pid>} after
 * {@code ./mvnw -Pbench test-compile}. The server must allow {@code idle + live} streams
 * ({@code arbor.events.max-streams}), and no more.
 * <p>
 * Phases, each printed as it ends (Markdown on stdout, progress on stderr):
 * <ol>
 * <li>idle: the server's heap (after a full GC, by {@code jcmd}) and OS threads with nothing open;</li>
 * <li>open: {@code idle} streams on quiet sessions and {@code live} on sessions that get appends, while health is
 * probed every 20 ms throughout; heap and threads with them all open (heap per stream = the difference over the
 * streams, at most 20 KB; OS threads at most 200); {@code refused} more streams, which must all get 503 with
 * {@code Retry-After};</li>
 * <li>appends: {@code appends} entries to the live sessions, each of whose streams must get every one;</li>
 * <li>leave: every stream closed; heap and threads sampled every 5 s for 60 s; then the live sessions deleted, and
 * the heap compared with the idle one;</li>
 * <li>stall: {@code stalled} streams that never read (small receive buffers) on one session, while
 * {@code stall.appends} entries of {@code stall.kb} KB are appended; heap sampled; each must be dropped (server gauge
 * back to zero), and, read at last, end with a {@code resync}.</li>
 * </ol>
 * Settings (system properties, defaults): {@code es.idle} 10000, {@code es.live} 100, {@code es.refused} 100,
 * {@code es.appends} 500, {@code es.stalled} 1000, {@code es.stall.appends} 300, {@code es.stall.kb} 100; {@code es.histogram}, a file for the server's class histogram once the streams have left. Exits
 * with status 1 when a check fails.
 */
public final class EventStreamLoad {

	private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

	private static final HttpClient HTTP = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(10))
		.build();

	private static String base;

	private static String host;

	private static int port;

	private static long pid;

	private static boolean failed;

	private EventStreamLoad() {
	}

	public static void main(String[] args) throws Exception {
		base = args[0].endsWith("/") ? args[0].substring(0, args[0].length() - 1) : args[0];
		URI uri = URI.create(base);
		host = uri.getHost();
		port = uri.getPort();
		pid = Long.parseLong(args[1]);
		int idle = Integer.getInteger("es.idle", 10_000);
		int live = Integer.getInteger("es.live", 100);
		int refused = Integer.getInteger("es.refused", 100);
		int appends = Integer.getInteger("es.appends", 500);
		int stalled = Integer.getInteger("es.stalled", 1000);
		int stallAppends = Integer.getInteger("es.stall.appends", 300);
		int stallKb = Integer.getInteger("es.stall.kb", 100);

		List<String> quiet = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			quiet.add(createSession());
		}
		List<String> busy = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			busy.add(createSession());
		}
		long idleHeap = heapAfterGc();
		int idleThreads = threads();
		System.out.println("| phase | streams | server heap after GC | server OS threads | notes |");
		System.out.println("|---|---:|---:|---:|---|");
		row("idle, before", 0, idleHeap, idleThreads, "");

		Streams streams = new Streams();
		Thread loop = new Thread(streams::run, "streams");
		loop.setDaemon(true);
		loop.start();
		Probe probe = new Probe();
		probe.start();

		long opening = System.nanoTime();
		for (int i = 0; i < idle; i++) {
			streams.open("/sessions/" + quiet.get(i % quiet.size()) + "/events", Mode.IDLE, null);
			if (i % 200 == 199) {
				streams.awaitOpened(i + 1 - 400, Duration.ofSeconds(60)); // at most 400 opening at once
			}
		}
		List<Stream> liveStreams = new ArrayList<>();
		for (int i = 0; i < live; i++) {
			String session = busy.get(i % busy.size());
			liveStreams.add(streams.open("/sessions/" + session + "/events", Mode.LIVE, session));
		}
		check(streams.awaitOpened(idle + live, Duration.ofSeconds(120)), "all " + (idle + live) + " streams open");
		double openSeconds = (System.nanoTime() - opening) / 1e9;
		check(streams.count(200) == idle + live, streams.count(200) + " of " + (idle + live) + " streams answered 200");
		long openHeap = heapAfterGc();
		int openThreads = threads();
		double perStreamKb = (openHeap - idleHeap) / 1024.0 / (idle + live);
		row("open", idle + live, openHeap, openThreads,
				String.format(Locale.ROOT, "opened in %.1f s; heap per stream %.1f KB", openSeconds, perStreamKb));
		check(perStreamKb <= 20, String.format(Locale.ROOT, "heap per stream <= 20 KB (%.1f KB)", perStreamKb));
		check(openThreads <= 200, "server OS threads <= 200 with every stream open (" + openThreads + ")");

		List<Stream> over = new ArrayList<>();
		for (int i = 0; i < refused; i++) {
			over.add(streams.open("/events", Mode.REFUSED, null));
		}
		check(streams.awaitAnswered(over, Duration.ofSeconds(30)), "the streams over the cap answered");
		long answered503 = over.stream().filter(s -> s.status == 503 && s.retryAfter).count();
		row("over the cap", idle + live, -1, -1, answered503 + " of " + refused + " refused with 503 and Retry-After");
		check(answered503 == refused, "every stream over the cap refused with 503 and Retry-After");

		int[] appended = new int[busy.size()];
		String entry = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"a live append\"}}";
		long appending = System.nanoTime();
		for (int i = 0; i < appends; i++) {
			int session = i % busy.size();
			if (append(busy.get(session), entry)) {
				appended[session]++;
			}
			TimeUnit.MILLISECONDS.sleep(10);
		}
		double appendSeconds = (System.nanoTime() - appending) / 1e9;
		TimeUnit.SECONDS.sleep(2);
		int complete = 0;
		for (Stream stream : liveStreams) {
			if (stream.appended == appended[busy.indexOf(stream.session)] && stream.resyncs == 0) {
				complete++;
			}
		}
		long heartbeats = streams.all.stream().filter(s -> s.mode == Mode.IDLE && s.comments > 1).count();
		row("appends", idle + live, -1, threads(),
				String.format(Locale.ROOT,
						"%d appends in %.1f s; %d of %d live streams got every one of their session's; idle streams "
								+ "with a heartbeat: %d",
						Arrays.stream(appended).sum(), appendSeconds, complete, live, heartbeats));
		check(complete == live, "every live stream got every event");
		probe.stop();
		System.out.println();
		System.out.println("Health while " + (idle + live) + " streams were opened and fed: " + probe.summary());
		check(probe.p99() <= 100, "health p99 <= 100 ms");

		streams.closeAll();
		System.out.println();
		System.out.println("| after the streams left | server heap after GC | server OS threads | open streams (server) |");
		System.out.println("|---|---:|---:|---:|");
		long leftAt = System.nanoTime();
		for (int second = 0; second <= 60; second += 5) {
			long wait = leftAt + TimeUnit.SECONDS.toNanos(second) - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			System.out.printf(Locale.ROOT, "| %d s | %s | %d | %s |%n", second, mb(heapAfterGc()), threads(),
					gauge("arbor_sse_subscribers"));
		}
		int backThreads = threads();
		check(backThreads <= idleThreads + 10, "threads back to idle (" + backThreads + ", idle " + idleThreads + ")");
		// What is left is the entries the live sessions got, and their replay: gone with the sessions themselves,
		// so that the comparison with the idle heap is about the streams alone.
		for (String session : busy) {
			delete(session);
		}
		long backHeap = heapAfterGc();
		System.out.println();
		System.out.println("Heap after GC once the live sessions are deleted too: " + mb(backHeap) + " (idle "
				+ mb(idleHeap) + ")");
		String histogram = System.getProperty("es.histogram");
		if (histogram != null) {
			// What is still held, class by class, for a heap that did not come back
			Files.writeString(Path.of(histogram), jcmd("GC.class_histogram"));
		}
		// Jetty's buffer pool keeps some of the buffers the streams used for reuse, however many connections there
		// were: that much above idle is idle still.
		check(backHeap <= idleHeap + 32L * 1024 * 1024,
				"heap back to idle (" + mb(backHeap) + ", idle " + mb(idleHeap) + ")");

		String stallSession = createSession();
		Streams stalls = new Streams();
		Thread stallLoop = new Thread(stalls::run, "stalled");
		stallLoop.setDaemon(true);
		stallLoop.start();
		for (int i = 0; i < stalled; i++) {
			stalls.open("/sessions/" + stallSession + "/events", Mode.STALLED, stallSession);
		}
		check(stalls.awaitOpened(stalled, Duration.ofSeconds(60)), "the stalled streams open");
		String big = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"" + "x".repeat(stallKb * 1024)
				+ "\"}}";
		long stallHeapMax = 0;
		System.out.println();
		System.out.println("| " + stalled + " streams that never read, " + stallKb
				+ " KB appends | server heap after GC | server OS threads | open streams (server) |");
		System.out.println("|---|---:|---:|---:|");
		for (int i = 1; i <= stallAppends; i++) {
			append(stallSession, big);
			if (i % 50 == 0) {
				long heap = heapAfterGc();
				stallHeapMax = Math.max(stallHeapMax, heap);
				System.out.printf(Locale.ROOT, "| after %d appends (%s) | %s | %d | %s |%n", i, mb(i * stallKb * 1024L),
						mb(heap), threads(), gauge("arbor_sse_subscribers"));
			}
		}
		String dropped = gauge("arbor_sse_dropped_total");
		stalls.readAll();
		check(stalls.awaitEnded(Duration.ofSeconds(120)), "the dropped streams ended");
		long endedWithResync = stalls.all.stream().filter(s -> s.endsWithResync).count();
		System.out.println();
		System.out.println("Stalled streams: " + dropped + " dropped (arbor_sse_dropped_total), " + endedWithResync
				+ " of " + stalled + " ended with a resync when read at last; heap after GC at most " + mb(stallHeapMax)
				+ " (idle " + mb(idleHeap) + ")");
		check(endedWithResync == stalled, "every stalled stream ended with a resync");
		// Bounded: each stalled connection costs at most what the stream cap counts for an open one
		// (config/HeapShares.PER_STREAM, with room for the frame its write holds), and what was appended is held at
		// most three times (the session, its replay, a frame in flight), whatever the streams that did not read it.
		long stallBound = backHeap + stalled * 16L * 1024 + 3L * stallAppends * stallKb * 1024;
		check(stallHeapMax <= stallBound,
				"heap bounded while streams stall (" + mb(stallHeapMax) + ", bound " + mb(stallBound) + ")");
		System.exit(failed ? 1 : 0);
	}

	private static void row(String phase, int streams, long heap, int threads, String notes) {
		System.out.printf(Locale.ROOT, "| %s | %,d | %s | %s | %s |%n", phase, streams, (heap < 0) ? "" : mb(heap),
				(threads < 0) ? "" : Integer.toString(threads), notes);
	}

	private static void check(boolean holds, String what) {
		if (!holds) {
			failed = true;
			System.err.println("FAILED: " + what);
		}
	}

	private static String mb(long bytes) {
		return String.format(Locale.ROOT, "%.1f MB", bytes / 1024.0 / 1024.0);
	}

	private static String createSession() throws IOException, InterruptedException {
		HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/sessions"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"cwd\":\"/bench\"}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		Matcher id = Pattern.compile("\"id\":\"([^\"]+)\"").matcher(created.body());
		if (created.statusCode() != 201 || !id.find()) {
			throw new IllegalStateException("POST /sessions answered " + created.statusCode() + ": " + created.body());
		}
		return id.group(1);
	}

	private static void delete(String session) throws IOException, InterruptedException {
		HttpResponse<Void> response = HTTP.send(
				HttpRequest.newBuilder(URI.create(base + "/sessions/" + session)).DELETE().build(),
				HttpResponse.BodyHandlers.discarding());
		check(response.statusCode() == 204, "DELETE /sessions/" + session + " answered " + response.statusCode());
	}

	private static boolean append(String session, String entry) throws IOException, InterruptedException {
		HttpResponse<Void> response = HTTP.send(
				HttpRequest.newBuilder(URI.create(base + "/sessions/" + session + "/entries"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString(entry))
					.build(),
				HttpResponse.BodyHandlers.discarding());
		if (response.statusCode() != 201) {
			System.err.println("append answered " + response.statusCode());
			failed = true;
		}
		return response.statusCode() == 201;
	}

	private static String gauge(String name) throws IOException, InterruptedException {
		String metrics = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus")).build(),
				HttpResponse.BodyHandlers.ofString())
			.body();
		Matcher value = Pattern.compile("(?m)^" + name + "(?:\\{[^}]*\\})? (\\S+)").matcher(metrics);
		return value.find() ? String.format(Locale.ROOT, "%.0f", Double.parseDouble(value.group(1))) : "?";
	}

	/** The server's used heap after a full GC, by {@code jcmd}. */
	private static long heapAfterGc() throws IOException, InterruptedException {
		jcmd("GC.run");
		Matcher used = HEAP_USED.matcher(jcmd("GC.heap_info"));
		if (!used.find()) {
			throw new IllegalStateException("no heap in jcmd's GC.heap_info");
		}
		return Long.parseLong(used.group(1)) * 1024;
	}

	private static String jcmd(String command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		process.waitFor();
		return output;
	}

	private static int threads() throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
			if (line.startsWith("Threads:")) {
				return Integer.parseInt(line.substring(8).trim());
			}
		}
		throw new IllegalStateException("no Threads: in /proc/" + pid + "/status");
	}

	/** Health probes every 20 ms on one keep-alive connection, their latencies kept. */
	private static final class Probe {

		private final List<Long> micros = new ArrayList<>();

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final Thread thread = new Thread(this::run, "health-probe");

		private int errors;

		void start() {
			this.thread.setDaemon(true);
			this.thread.start();
		}

		void stop() throws InterruptedException {
			this.running.set(false);
			this.thread.join();
		}

		private void run() {
			HttpRequest health = HttpRequest.newBuilder(URI.create(base + "/actuator/health"))
				.timeout(Duration.ofSeconds(30))
				.build();
			while (this.running.get()) {
				long start = System.nanoTime();
				try {
					int status = HTTP.send(health, HttpResponse.BodyHandlers.discarding()).statusCode();
					if (status != 200) {
						this.errors++;
					}
				}
				catch (IOException ex) {
					this.errors++;
				}
				catch (InterruptedException ex) {
					return;
				}
				synchronized (this.micros) {
					this.micros.add((System.nanoTime() - start) / 1000);
				}
				try {
					TimeUnit.MILLISECONDS.sleep(20);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

		double p99() {
			return percentile(0.99) / 1000.0;
		}

		private long percentile(double p) {
			synchronized (this.micros) {
				long[] sorted = this.micros.stream().mapToLong(Long::longValue).sorted().toArray();
				return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
			}
		}

		String summary() {
			return String.format(Locale.ROOT, "%d probes, p50 %.1f ms, p99 %.1f ms, max %.1f ms, %d errors",
					this.micros.size(), percentile(0.5) / 1000.0, percentile(0.99) / 1000.0, percentile(1.0) / 1000.0,
					this.errors);
		}

	}

	private enum Mode {

		/** Reads and discards (heartbeats only). */
		IDLE,

		/** Reads and counts events. */
		LIVE,

		/** Never reads, until told to read to the end. */
		STALLED,

		/** Expected to be refused. */
		REFUSED

	}

	/** One stream: its socket, and what was read of its response. */
	private static final class Stream {

		final Mode mode;

		final String path;

		final String session;

		SocketChannel channel;

		volatile int status;

		volatile boolean retryAfter;

		volatile boolean ended;

		volatile int appended;

		volatile int resyncs;

		volatile int comments;

		volatile boolean endsWithResync;

		volatile boolean asked;

		final StringBuilder head = new StringBuilder();

		boolean inBody;

		/** The chunked body: -1 while reading a size line, else the bytes left of the chunk (then its CRLF). */
		int chunkLeft = -1;

		boolean chunkCrlf;

		final StringBuilder sizeLine = new StringBuilder();

		final StringBuilder line = new StringBuilder();

		String lastEvent = "";

		String eventType = "";

		Stream(Mode mode, String path, String session) {
			this.mode = mode;
			this.path = path;
			this.session = session;
		}

	}

	/** The streams and the selector thread that reads them. */
	private static final class Streams {

		final List<Stream> all = new ArrayList<>();

		private final Queue<Stream> toOpen = new ConcurrentLinkedQueue<>();

		private final Selector selector;

		private volatile boolean readStalled;

		Streams() throws IOException {
			this.selector = Selector.open();
		}

		Stream open(String path, Mode mode, String session) {
			Stream stream = new Stream(mode, path, session);
			synchronized (this.all) {
				this.all.add(stream);
			}
			this.toOpen.add(stream);
			this.selector.wakeup();
			return stream;
		}

		long count(int status) {
			synchronized (this.all) {
				return this.all.stream().filter(s -> s.status == status).count();
			}
		}

		boolean awaitOpened(int count, Duration timeout) throws InterruptedException {
			long deadline = System.nanoTime() + timeout.toNanos();
			while (System.nanoTime() < deadline) {
				synchronized (this.all) {
					if (this.all.stream().filter(Streams::opened).count() >= count) {
						return true;
					}
				}
				TimeUnit.MILLISECONDS.sleep(20);
			}
			return false;
		}

		/** Live (its opening comment read), or, for one that never reads, connected and asked. */
		private static boolean opened(Stream stream) {
			return (stream.mode == Mode.STALLED) ? stream.asked : stream.comments > 0;
		}

		boolean awaitAnswered(List<Stream> streams, Duration timeout) throws InterruptedException {
			long deadline = System.nanoTime() + timeout.toNanos();
			while (System.nanoTime() < deadline) {
				if (streams.stream().allMatch(s -> s.ended)) {
					return true;
				}
				TimeUnit.MILLISECONDS.sleep(20);
			}
			return false;
		}

		boolean awaitEnded(Duration timeout) throws InterruptedException {
			return awaitAnswered(this.all, timeout);
		}

		void readAll() {
			this.readStalled = true;
			this.selector.wakeup();
		}

		void closeAll() throws IOException {
			synchronized (this.all) {
				for (Stream stream : this.all) {
					if (stream.channel != null) {
						stream.channel.close();
					}
				}
			}
		}

		void run() {
			ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
			boolean reading = false;
			try {
				while (true) {
					this.selector.select(100);
					Stream next;
					while ((next = this.toOpen.poll()) != null) {
						SocketChannel channel = SocketChannel.open();
						if (next.mode == Mode.STALLED) {
							channel.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
						}
						channel.configureBlocking(false);
						channel.connect(new InetSocketAddress(host, port));
						next.channel = channel;
						channel.register(this.selector, SelectionKey.OP_CONNECT, next);
					}
					if (this.readStalled && !reading) {
						reading = true;
						for (SelectionKey key : this.selector.keys()) {
							if (key.isValid()) {
								key.interestOps(key.interestOps() | SelectionKey.OP_READ);
							}
						}
					}
					for (SelectionKey key : this.selector.selectedKeys()) {
						Stream stream = (Stream) key.attachment();
						try {
							if (key.isConnectable() && stream.channel.finishConnect()) {
								String request = "GET " + stream.path + " HTTP/1.1\r\nHost: " + host + ":" + port
										+ "\r\nAccept: text/event-stream\r\n\r\n";
								stream.channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
								key.interestOps((stream.mode == Mode.STALLED) ? 0 : SelectionKey.OP_READ);
								stream.asked = true;
							}
							else if (key.isReadable()) {
								buffer.clear();
								int read = stream.channel.read(buffer);
								if (read < 0) {
									stream.ended = true;
									key.cancel();
									stream.channel.close();
								}
								else {
									buffer.flip();
									consume(stream, buffer);
								}
							}
						}
						catch (IOException ex) {
							stream.ended = true;
							key.cancel();
							stream.channel.close();
						}
					}
					this.selector.selectedKeys().clear();
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

		/** Takes what was read: the response head, then the chunked body, line by line. */
		private static void consume(Stream stream, ByteBuffer bytes) {
			while (bytes.hasRemaining()) {
				char c = (char) (bytes.get() & 0xff);
				if (!stream.inBody) {
					stream.head.append(c);
					if (stream.head.length() >= 4 && stream.head.lastIndexOf("\r\n\r\n") == stream.head.length() - 4) {
						String head = stream.head.toString();
						stream.status = Integer.parseInt(head.substring(9, 12));
						stream.retryAfter = head.toLowerCase(Locale.ROOT).contains("\r\nretry-after:");
						stream.inBody = true;
						stream.ended = stream.status != 200; // a refusal: its body does not matter
					}
					continue;
				}
				if (stream.status != 200) {
					continue; // the problem's body; the server closes or keeps the connection, either is fine
				}
				if (stream.chunkLeft < 0) {
					if (c == '\n') {
						String size = stream.sizeLine.toString().trim();
						stream.sizeLine.setLength(0);
						if (!size.isEmpty()) {
							stream.chunkLeft = Integer.parseInt(size, 16);
							if (stream.chunkLeft == 0) {
								stream.ended = true;
								stream.endsWithResync = stream.lastEvent.equals("resync");
							}
						}
					}
					else {
						stream.sizeLine.append(c);
					}
					continue;
				}
				if (stream.chunkLeft == 0) {
					// the CRLF after a chunk's data
					if (c == '\n') {
						stream.chunkLeft = -1;
					}
					continue;
				}
				stream.chunkLeft--;
				if (c != '\n') {
					if (stream.line.length() < 64) {
						stream.line.append(c);
					}
					continue;
				}
				String line = stream.line.toString();
				stream.line.setLength(0);
				if (line.startsWith("event:")) {
					stream.eventType = line.substring(6);
				}
				else if (line.startsWith(":")) {
					stream.comments++;
				}
				else if (line.isEmpty() && !stream.eventType.isEmpty()) {
					if (stream.eventType.equals("entry_appended")) {
						stream.appended++;
					}
					else if (stream.eventType.equals("resync")) {
						stream.resyncs++;
					}
					stream.lastEvent = stream.eventType;
					stream.eventType = "";
				}
			}
		}

	}

}

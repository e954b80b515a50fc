package dev.arbor.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load client of {@code bench/navigate-events.sh}
 * (docs/BENCHMARKS.md#navigation-and-live-events-benchnavigate-eventssh), against a running Arbor. JDK only
 * ({@code java.net.http}), so it runs as
 * {@code java -cp target/test-classes dev.arbor.bench.NavigationLoad <base URL> <session id>} after
 * {@code ./mvnw -Pbench test-compile}.
 * <ol>
 * <li><b>Navigate</b> on the given session (the generated 100,000-entry chain, leaf at its end):
 * {@code POST /sessions/{id}/navigate {"targetId": X}} alternating between an assistant entry near the end and
 * one in the middle, so that every call moves the leaf: once with {@code ?context=false}, once with the default
 * (the answer then carries the rebuilt context). One connection, one request at a time, after a warm-up. Every
 * answer must be 200 with {@code newLeafId} = the target.</li>
 * <li><b>SSE delivery</b>: on a fresh empty session, opens S streams {@code GET /sessions/{id}/events}, waits
 * until each has read its opening comment {@code :open}, then appends N user messages, one every P ms, each
 * carrying its sequence number. The latency of a delivery is the time a subscriber read the {@code data:} line
 * of that entry's {@code entry_appended} event minus the time just before the POST was sent (one clock: the
 * same JVM). Run with 1 subscriber (baseline) and with S.</li>
 * </ol>
 * Prints two Markdown tables on stdout and progress on stderr. Settings (system properties, defaults):
 * {@code nav.warmup} 200, {@code nav.iterations} 1000, {@code nav.context.warmup} 10,
 * {@code nav.context.iterations} 100, {@code sse.subscribers} 1000, {@code sse.events} 200,
 * {@code sse.pace.ms} 20, {@code sse.warmup.events} 50 (a first round with up to 100 subscribers, not reported),
 * {@code sse.open.concurrency} 50 (streams being opened at once),
 * {@code sse.streams.per.client} 250 (streams per {@code HttpClient}, each has one selector thread),
 * {@code sse.append.base} (where the entries are appended: another replica of the same database, for the
 * latency across replicas; the given base URL by default), {@code nav.skip} false (true: the SSE part only).
 * Exits with status 1 when a check failed (a wrong answer, a missing or repeated delivery).
 */
public final class NavigationLoad {

	private static final String SEQ_MARK = "bench-seq-";

	private static final String MESSAGE_TEXT = " Run the test suite again and tell me which tests fail, with the first lines of each stack trace.";

	private final String base;

	/** One connection, one request at a time (HTTP/1.1 keep-alive). */
	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(10))
		.build();

	private boolean failed;

	/** The entries between the two navigation targets: what navigating from the end to the middle leaves behind. */
	private int leftBehind;

	private NavigationLoad(String base) {
		this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 2) {
			System.err.println("usage: NavigationLoad <base URL> <id of the 100,000-entry session>");
			System.exit(2);
		}
		NavigationLoad load = new NavigationLoad(args[0]);
		if (!Boolean.getBoolean("nav.skip")) {
			load.navigation(args[1]);
		}
		load.events();
		System.exit(load.failed ? 1 : 0);
	}

	// ---------------------------------------------------------------------------------------------- navigation

	private void navigation(String sessionId) throws Exception {
		String[] targets = targets(sessionId);
		String near = targets[0];
		String middle = targets[1];
		this.leftBehind = Integer.parseInt(targets[2]);
		log("navigation targets: %s (near the end), %s (the middle), %,d entries apart", near, middle,
				this.leftBehind);
		System.out.println("| request | direction | requests | p50 ms | p99 ms | max ms | requests/s | bytes/answer | errors |");
		System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
		navigate(sessionId, "POST navigate?context=false", "?context=false", near, middle,
				Integer.getInteger("nav.warmup", 200), Integer.getInteger("nav.iterations", 1000));
		navigate(sessionId, "POST navigate (with context)", "", near, middle,
				Integer.getInteger("nav.context.warmup", 10), Integer.getInteger("nav.context.iterations", 100));
		System.out.println();
	}

	/**
	 * An assistant message entry just before the leaf (the last entry) and the first one at or after the middle of
	 * the file, and how many entries lie between them; the session is one chain in file order, so the middle one
	 * is an ancestor of the other.
	 */
	@SuppressWarnings("unchecked")
	private String[] targets(String sessionId) throws Exception {
		List<String[]> entries = new ArrayList<>(); // id, type, role
		String after = null;
		do {
			String path = "/sessions/" + sessionId + "/entries?limit=1000" + ((after != null) ? "&after=" + after : "");
			HttpResponse<String> response = this.http.send(get(path).build(), BodyHandlers.ofString());
			expectStatus(response, 200);
			Map<String, Object> page = (Map<String, Object>) Json.parse(response.body());
			for (Object item : (List<Object>) page.get("items")) {
				Map<String, Object> entry = (Map<String, Object>) item;
				Object message = entry.get("message");
				String role = (message instanceof Map<?, ?> m) ? (String) m.get("role") : null;
				entries.add(new String[] { (String) entry.get("id"), (String) entry.get("type"), role });
			}
			after = (String) page.get("nextCursor");
		}
		while (after != null);
		log("read %,d entries of session %s", entries.size(), sessionId);
		int near = entries.size() - 2;
		while (near >= 0 && !isAssistant(entries.get(near))) {
			near--;
		}
		int middle = entries.size() / 2;
		while (middle < entries.size() && !isAssistant(entries.get(middle))) {
			middle++;
		}
		if (near < 0 || middle >= near) {
			throw new IllegalStateException("No two assistant entries to navigate between");
		}
		return new String[] { entries.get(near)[0], entries.get(middle)[0], String.valueOf(near - middle) };
	}

	private static boolean isAssistant(String[] entry) {
		return "message".equals(entry[1]) && "assistant".equals(entry[2]);
	}

	/**
	 * Navigates {@code warmup + iterations} times, alternating between the two targets (starting with the middle:
	 * the leaf starts at the end), and prints the measured iterations as rows: both directions, then each.
	 */
	private void navigate(String sessionId, String name, String query, String near, String middle, int warmup,
			int iterations) throws Exception {
		URI uri = URI.create(this.base + "/sessions/" + sessionId + "/navigate" + query);
		long[] toMiddle = new long[(iterations + 1) / 2];
		long[] toNear = new long[iterations / 2];
		int errors = 0;
		long bytes = 0;
		long started = 0;
		log("%s: %d warm-up + %d measured requests ...", name, warmup, iterations);
		for (int i = 0; i < warmup + iterations; i++) {
			int measured = i - warmup;
			if (measured == 0) {
				started = System.nanoTime();
			}
			String target = (i % 2 == 0) ? middle : near;
			HttpRequest request = HttpRequest.newBuilder(uri)
				.timeout(Duration.ofSeconds(60))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{\"targetId\":\"" + target + "\"}"))
				.build();
			long start = System.nanoTime();
			HttpResponse<byte[]> response = this.http.send(request, BodyHandlers.ofByteArray());
			long took = System.nanoTime() - start;
			String problem = checkNavigation(response, target);
			if (problem != null) {
				errors++;
				if (errors <= 5) {
					log("  %s: %s", name, problem);
				}
			}
			if (measured >= 0) {
				if (i % 2 == 0) {
					toMiddle[measured / 2] = took;
				}
				else {
					toNear[measured / 2] = took;
				}
				bytes += response.body().length;
			}
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		if (errors > 0) {
			this.failed = true;
		}
		long[] all = concat(toMiddle, toNear);
		long perAnswer = bytes / Math.max(1, iterations);
		row(name, "both, alternating", all, iterations / seconds, perAnswer, errors);
		row(name, String.format(Locale.ROOT, "end → middle (%,d entries left behind)", this.leftBehind), toMiddle,
				Double.NaN, -1, -1);
		row(name, "middle → end (none left behind)", toNear, Double.NaN, -1, -1);
	}

	/** Why the answer is wrong, or {@code null}: 200, not cancelled, {@code newLeafId} is the target. */
	private static String checkNavigation(HttpResponse<byte[]> response, String target) {
		if (response.statusCode() != 200) {
			return "status " + response.statusCode() + ": "
					+ new String(response.body(), 0, Math.min(300, response.body().length), StandardCharsets.UTF_8);
		}
		String newLeafId = topLevelString(response.body(), "newLeafId");
		if (!target.equals(newLeafId)) {
			return "newLeafId " + newLeafId + ", expected " + target;
		}
		if (indexOf(response.body(), "\"cancelled\":false".getBytes(StandardCharsets.UTF_8)) < 0) {
			return "cancelled is not false";
		}
		return null;
	}

	/**
	 * The string value of a key of the answer. The answer with context is 22 MB, so this looks for the key's bytes
	 * rather than parsing it all: inside a JSON string a quote is escaped, so {@code "newLeafId":"} only occurs as
	 * a key, and no entry of the context has one.
	 */
	private static String topLevelString(byte[] body, String key) {
		byte[] needle = ("\"" + key + "\":").getBytes(StandardCharsets.UTF_8);
		int at = indexOf(body, needle);
		if (at < 0) {
			return null;
		}
		int start = at + needle.length;
		if (body[start] != '"') {
			return null; // null or not a string
		}
		int end = start + 1;
		while (end < body.length && body[end] != '"') {
			end++;
		}
		return new String(body, start + 1, end - start - 1, StandardCharsets.UTF_8);
	}

	private static int indexOf(byte[] haystack, byte[] needle) {
		outer: for (int i = 0; i + needle.length <= haystack.length; i++) {
			for (int j = 0; j < needle.length; j++) {
				if (haystack[i + j] != needle[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	private static void row(String name, String direction, long[] nanos, double rate, long bytes, int errors) {
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		System.out.printf(Locale.ROOT, "| %s | %s | %,d | %s | %s | %s | %s | %s | %s |%n", name, direction,
				sorted.length, ms(percentile(sorted, 0.50)), ms(percentile(sorted, 0.99)),
				ms(sorted[sorted.length - 1]), Double.isNaN(rate) ? "" : String.format(Locale.ROOT, "%.1f", rate),
				(bytes < 0) ? "" : String.format(Locale.ROOT, "%,d", bytes), (errors < 0) ? "" : errors);
	}

	// ---------------------------------------------------------------------------------------------- events

	private void events() throws Exception {
		int subscribers = Integer.getInteger("sse.subscribers", 1000);
		int events = Integer.getInteger("sse.events", 200);
		long paceMillis = Long.getLong("sse.pace.ms", 20);
		System.out.println("| subscribers | entries appended | deliveries (expected) | p50 ms | p99 ms | max ms | "
				+ "missing | duplicates | streams ended early | time to open all streams |");
		System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
		int warmup = Integer.getInteger("sse.warmup.events", 50);
		if (warmup > 0) {
			delivery(Math.min(subscribers, 100), warmup, paceMillis, false); // JIT and thread pools, not reported
		}
		delivery(1, events, paceMillis, true);
		delivery(subscribers, events, paceMillis, true);
	}

	private void delivery(int subscriberCount, int events, long paceMillis, boolean report) throws Exception {
		String sessionId = createSession();
		log("SSE%s: %d subscriber(s) on fresh session %s, %d entries one every %d ms ...", report ? "" : " warm-up",
				subscriberCount, sessionId, events, paceMillis);
		int perClient = Integer.getInteger("sse.streams.per.client", 250);
		List<HttpClient> clients = new ArrayList<>();
		for (int i = 0; i < (subscriberCount + perClient - 1) / perClient; i++) {
			clients.add(HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(30))
				.build());
		}
		CountDownLatch opened = new CountDownLatch(subscriberCount);
		CountDownLatch complete = new CountDownLatch(subscriberCount);
		Semaphore opening = new Semaphore(Integer.getInteger("sse.open.concurrency", 50));
		List<Stream> streams = new ArrayList<>();
		URI uri = URI.create(this.base + "/sessions/" + sessionId + "/events");
		long openStart = System.nanoTime();
		for (int i = 0; i < subscriberCount; i++) {
			opening.acquire();
			Stream stream = new Stream(events, opened, complete, opening);
			streams.add(stream);
			HttpRequest request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").GET().build();
			clients.get(i / perClient).sendAsync(request, info -> {
				stream.status = info.statusCode();
				return BodySubscribers.fromLineSubscriber(stream);
			}).whenComplete((response, error) -> stream.ended(error));
		}
		if (!opened.await(60, TimeUnit.SECONDS)) {
			long open = streams.stream().filter(s -> s.isOpen).count();
			log("  only %d of %d streams opened within 60 s", open, subscriberCount);
		}
		double openSeconds = (System.nanoTime() - openStart) / 1e9;
		log("  %d streams open in %.2f s", subscriberCount, openSeconds);

		long[] sent = new long[events];
		String appendBase = System.getProperty("sse.append.base", this.base);
		URI entries = URI.create(appendBase + "/sessions/" + sessionId + "/entries");
		long start = System.nanoTime();
		int postErrors = 0;
		for (int seq = 0; seq < events; seq++) {
			long due = start + seq * paceMillis * 1_000_000;
			long wait = due - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			String body = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"" + SEQ_MARK + seq
					+ MESSAGE_TEXT + "\"}}";
			HttpRequest request = HttpRequest.newBuilder(entries)
				.timeout(Duration.ofSeconds(30))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build();
			sent[seq] = System.nanoTime();
			HttpResponse<String> response = this.http.send(request, BodyHandlers.ofString());
			if (response.statusCode() != 201) {
				postErrors++;
				log("  POST entries: status %d %s", response.statusCode(), response.body());
			}
		}
		if (!complete.await(30, TimeUnit.SECONDS)) {
			log("  not every subscriber had every event 30 s after the last append");
		}
		streams.forEach(Stream::cancel);

		List<long[]> latencies = new ArrayList<>();
		long missing = 0;
		long duplicates = 0;
		int endedEarly = 0;
		int badStatus = 0;
		int delivered = 0;
		for (Stream stream : streams) {
			synchronized (stream) {
				long[] mine = new long[events];
				int n = 0;
				for (int seq = 0; seq < events; seq++) {
					if (stream.counts[seq] == 0) {
						missing++;
					}
					else {
						duplicates += stream.counts[seq] - 1;
						mine[n++] = stream.readAt[seq] - sent[seq];
					}
				}
				latencies.add(Arrays.copyOf(mine, n));
				delivered += n;
				if (stream.endedEarly) {
					endedEarly++;
				}
				if (stream.status != 200) {
					badStatus++;
				}
			}
		}
		long[] all = concat(latencies.toArray(long[][]::new));
		Arrays.sort(all);
		if (missing > 0 || duplicates > 0 || endedEarly > 0 || badStatus > 0 || postErrors > 0 || all.length == 0) {
			this.failed = true;
			log("  FAILED: missing %d, duplicates %d, ended early %d, status not 200 %d, failed appends %d", missing,
					duplicates, endedEarly, badStatus, postErrors);
		}
		if (!report) {
			return;
		}
		System.out.printf(Locale.ROOT, "| %,d | %,d | %,d (%,d) | %s | %s | %s | %,d | %,d | %d | %.2f s |%n",
				subscriberCount, events, delivered, (long) subscriberCount * events,
				ms(percentile(all, 0.50)), ms(percentile(all, 0.99)),
				(all.length > 0) ? ms(all[all.length - 1]) : "-", missing, duplicates, endedEarly, openSeconds);
		// HttpClient is AutoCloseable only from Java 21: on 17 its threads end once it is unreachable.
	}

	private String createSession() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create(this.base + "/sessions"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"cwd\":\"/bench\",\"title\":\"sse bench\"}"))
			.build();
		HttpResponse<String> response = this.http.send(request, BodyHandlers.ofString());
		expectStatus(response, 201);
		return (String) ((Map<?, ?>) Json.parse(response.body())).get("id");
	}

	/** One SSE stream: the time it read each appended entry's data line, and how often it saw each. */
	private static final class Stream implements Flow.Subscriber<String> {

		final long[] readAt;

		final int[] counts;

		private final CountDownLatch opened;

		private final CountDownLatch complete;

		private final Semaphore opening;

		private final AtomicInteger distinct = new AtomicInteger();

		volatile int status;

		boolean isOpen;

		boolean endedEarly;

		private boolean cancelled;

		private String event;

		private Flow.Subscription subscription;

		Stream(int events, CountDownLatch opened, CountDownLatch complete, Semaphore opening) {
			this.readAt = new long[events];
			this.counts = new int[events];
			this.opened = opened;
			this.complete = complete;
			this.opening = opening;
		}

		@Override
		public synchronized void onSubscribe(Flow.Subscription subscription) {
			this.subscription = subscription;
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(String line) {
			long now = System.nanoTime();
			synchronized (this) { // uncontended: one thread at a time calls onNext; this publishes to the reader
				if (line.startsWith("data:")) {
					if ("entry_appended".equals(this.event)) {
						int seq = sequence(line);
						if (seq >= 0 && seq < this.counts.length) {
							if (this.counts[seq]++ == 0) {
								this.readAt[seq] = now;
								if (this.distinct.incrementAndGet() == this.counts.length) {
									this.complete.countDown();
								}
							}
						}
					}
				}
				else if (line.startsWith("event:")) {
					this.event = line.substring(6).trim();
				}
				else if (line.isEmpty()) {
					this.event = null;
				}
				else if (line.equals(":open") && !this.isOpen) {
					this.isOpen = true;
					this.opening.release();
					this.opened.countDown();
				}
			}
		}

		@Override
		public void onError(Throwable error) {
			ended(error);
		}

		@Override
		public void onComplete() {
			ended(null);
		}

		synchronized void ended(Throwable error) {
			if (!this.cancelled && !this.endedEarly) {
				this.endedEarly = true;
				if (error != null) {
					log("  stream ended: %s", error);
				}
				if (!this.isOpen) {
					this.opening.release();
				}
			}
		}

		synchronized void cancel() {
			this.cancelled = true;
			if (this.subscription != null) {
				this.subscription.cancel();
			}
		}

		private static int sequence(String line) {
			int at = line.indexOf(SEQ_MARK);
			if (at < 0) {
				return -1;
			}
			int value = 0;
			for (int i = at + SEQ_MARK.length(); i < line.length() && Character.isDigit(line.charAt(i)); i++) {
				value = value * 10 + (line.charAt(i) - '0');
			}
			return value;
		}

	}

	// ---------------------------------------------------------------------------------------------- helpers

	private HttpRequest.Builder get(String path) {
		return HttpRequest.newBuilder(URI.create(this.base + path)).timeout(Duration.ofSeconds(60)).GET();
	}

	private static void expectStatus(HttpResponse<String> response, int status) {
		if (response.statusCode() != status) {
			throw new IllegalStateException(response.request().method() + " " + response.uri() + ": status "
					+ response.statusCode() + ", expected " + status + ": " + response.body());
		}
	}

	private static long[] concat(long[]... parts) {
		long[] all = new long[Arrays.stream(parts).mapToInt(part -> part.length).sum()];
		int at = 0;
		for (long[] part : parts) {
			System.arraycopy(part, 0, all, at, part.length);
			at += part.length;
		}
		return all;
	}

	/** The nearest-rank percentile of sorted values. */
	private static long percentile(long[] sorted, double p) {
		if (sorted.length == 0) {
			return -1;
		}
		int rank = (int) Math.ceil(p * sorted.length);
		return sorted[Math.max(0, rank - 1)];
	}

	private static String ms(long nanos) {
		if (nanos < 0) {
			return "-";
		}
		double ms = nanos / 1e6;
		return String.format(Locale.ROOT, (ms < 10) ? "%.2f" : (ms < 100) ? "%.1f" : "%.0f", ms);
	}

	private static void log(String format, Object... args) {
		System.err.printf(Locale.ROOT, format + "%n", args);
	}

	/** A minimal JSON reader for the small answers checked here (maps, lists, strings, numbers, booleans, null). */
	static final class Json {

		private final String text;

		private int at;

		private Json(String text) {
			this.text = text;
		}

		static Object parse(String text) {
			Json json = new Json(text);
			Object value = json.value();
			json.space();
			if (json.at != text.length()) {
				throw json.error("trailing characters");
			}
			return value;
		}

		private Object value() {
			space();
			if (this.at >= this.text.length()) {
				throw error("unexpected end");
			}
			char c = this.text.charAt(this.at);
			switch (c) {
				case '{' -> {
					this.at++;
					Map<String, Object> map = new LinkedHashMap<>();
					space();
					if (peek('}')) {
						return map;
					}
					do {
						space();
						String key = string();
						space();
						expect(':');
						map.put(key, value());
						space();
					}
					while (peek(','));
					expect('}');
					return map;
				}
				case '[' -> {
					this.at++;
					List<Object> list = new ArrayList<>();
					space();
					if (peek(']')) {
						return list;
					}
					do {
						list.add(value());
						space();
					}
					while (peek(','));
					expect(']');
					return list;
				}
				case '"' -> {
					return string();
				}
				case 't' -> {
					return literal("true", Boolean.TRUE);
				}
				case 'f' -> {
					return literal("false", Boolean.FALSE);
				}
				case 'n' -> {
					return literal("null", null);
				}
				default -> {
					int start = this.at;
					while (this.at < this.text.length() && "+-0123456789.eE".indexOf(this.text.charAt(this.at)) >= 0) {
						this.at++;
					}
					if (start == this.at) {
						throw error("unexpected " + c);
					}
					return Double.parseDouble(this.text.substring(start, this.at));
				}
			}
		}

		private String string() {
			expect('"');
			StringBuilder out = new StringBuilder();
			while (true) {
				char c = this.text.charAt(this.at++);
				if (c == '"') {
					return out.toString();
				}
				if (c != '\\') {
					out.append(c);
					continue;
				}
				char escaped = this.text.charAt(this.at++);
				switch (escaped) {
					case 'n' -> out.append('\n');
					case 't' -> out.append('\t');
					case 'r' -> out.append('\r');
					case 'b' -> out.append('\b');
					case 'f' -> out.append('\f');
					case 'u' -> {
						out.append((char) Integer.parseInt(this.text.substring(this.at, this.at + 4), 16));
						this.at += 4;
					}
					default -> out.append(escaped);
				}
			}
		}

		private Object literal(String word, Object value) {
			if (!this.text.startsWith(word, this.at)) {
				throw error("unexpected literal");
			}
			this.at += word.length();
			return value;
		}

		private boolean peek(char c) {
			if (this.at < this.text.length() && this.text.charAt(this.at) == c) {
				this.at++;
				return true;
			}
			return false;
		}

		private void expect(char c) {
			if (!peek(c)) {
				throw error("expected " + c);
			}
		}

		private void space() {
			while (this.at < this.text.length() && Character.isWhitespace(this.text.charAt(this.at))) {
				this.at++;
			}
		}

		private IllegalArgumentException error(String message) {
			return new IllegalArgumentException(message + " at " + this.at);
		}

	}

}

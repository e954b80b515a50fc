package dev.arbor.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Load client of {@code bench/live-tail.sh}
 * (docs/BENCHMARKS.md#living-beside-an-agent-benchlive-agentsh-benchlive-tailsh): the time from an append by another
 * process to the {@code entry_appended} event on a session's stream. JDK only, run as
 * {@code java -cp target/test-classes dev.arbor.bench.ExternalAppendLoad <base URL> <storage dir> <label>} after
 * {@code ./mvnw -Pbench test-compile}.
 * <p>
 * It creates a session through the API, opens {@code GET /sessions/{id}/events}, and then appends user messages to
 * the session's file as the agents do ({@code appendFileSync}: open in append mode, one write, close), one every P
 * ms, each carrying its sequence number. A delivery's latency is the time the stream's {@code data:} line of that
 * entry was read minus the time just before the file was opened (one clock: the same JVM). Prints one Markdown row
 * on stdout and progress on stderr. Settings (system properties, defaults): {@code ext.events} 400,
 * {@code ext.pace.ms} 25, {@code ext.warmup} 50 (appended first, not reported). Exits with status 1 when an entry
 * was not delivered, or delivered twice.
 */
public final class ExternalAppendLoad {

	private static final Pattern SEQ = Pattern.compile("ext-seq-(\\d+) ");

	private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");

	private ExternalAppendLoad() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 3) {
			System.err.println("usage: ExternalAppendLoad <base URL> <storage dir> <label>");
			System.exit(2);
		}
		String base = args[0].endsWith("/") ? args[0].substring(0, args[0].length() - 1) : args[0];
		int warmup = Integer.getInteger("ext.warmup", 50);
		int events = Integer.getInteger("ext.events", 400);
		long pace = Long.getLong("ext.pace.ms", 25);
		HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/sessions"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"cwd\":\"/bench\",\"title\":\"outside appends\"}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		Matcher id = ID.matcher(created.body());
		if (created.statusCode() != 201 || !id.find()) {
			throw new IllegalStateException("POST /sessions: " + created.statusCode() + " " + created.body());
		}
		String sessionId = id.group(1);
		Path file = sessionFile(Path.of(args[1]), sessionId);
		int total = warmup + events;
		Lines stream = new Lines(total);
		http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/sessions/" + sessionId + "/events"))
			.header("Accept", "text/event-stream")
			.build(), info -> BodySubscribers.fromLineSubscriber(stream));
		if (!stream.opened.await(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("The event stream did not open");
		}
		System.err.printf("%s: session %s, %d appends to %s one every %d ms (%d warm-up) ...%n", args[2], sessionId,
				events, file.getFileName(), pace, warmup);
		long[] sent = new long[total];
		String parent = null;
		long start = System.nanoTime();
		for (int seq = 0; seq < total; seq++) {
			long wait = start + seq * pace * 1_000_000 - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			String entryId = String.format("e%07x", seq);
			String timestamp = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
			String line = "{\"type\":\"message\",\"id\":\"" + entryId + "\",\"parentId\":"
					+ ((parent != null) ? "\"" + parent + "\"" : "null") + ",\"timestamp\":\"" + timestamp
					+ "\",\"message\":{\"role\":\"user\",\"content\":\"ext-seq-" + seq + " Run the tests again.\"}}\n";
			sent[seq] = System.nanoTime();
			append(file, line);
			parent = entryId;
		}
		boolean complete = stream.complete.await(30, TimeUnit.SECONDS);
		long[] latencies = new long[events];
		int delivered = 0;
		int duplicates = 0;
		synchronized (stream) {
			for (int seq = warmup; seq < total; seq++) {
				if (stream.counts[seq] > 0) {
					latencies[delivered++] = stream.readAt[seq] - sent[seq];
				}
				duplicates += Math.max(0, stream.counts[seq] - 1);
			}
		}
		long[] sorted = Arrays.copyOf(latencies, delivered);
		Arrays.sort(sorted);
		System.out.printf(Locale.ROOT, "| %s | %,d | %,d | %s | %s | %s | %d |%n", args[2], events, delivered,
				ms(sorted, 0.50), ms(sorted, 0.99), ms(sorted, 1.0), duplicates);
		System.exit((complete && delivered == events && duplicates == 0) ? 0 : 1);
	}

	private static Path sessionFile(Path storage, String sessionId) throws IOException {
		try (Stream<Path> files = Files.walk(storage)) {
			return files.filter(f -> f.getFileName().toString().endsWith("_" + sessionId + ".jsonl"))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("No file for session " + sessionId + " under " + storage));
		}
	}

	/** {@code appendFileSync}: open in append mode, one write, close; no lock. */
	private static void append(Path file, String line) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
			ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
			while (bytes.hasRemaining()) {
				channel.write(bytes);
			}
		}
	}

	private static String ms(long[] sorted, double percentile) {
		if (sorted.length == 0) {
			return "-";
		}
		int index = (int) Math.min(sorted.length - 1, Math.ceil(percentile * sorted.length) - 1);
		return String.format(Locale.ROOT, "%.1f ms", sorted[Math.max(0, index)] / 1e6);
	}

	/** The stream's lines: when each appended entry's {@code data:} line was read, and how often. */
	private static final class Lines implements Flow.Subscriber<String> {

		final long[] readAt;

		final int[] counts;

		final CountDownLatch opened = new CountDownLatch(1);

		final CountDownLatch complete = new CountDownLatch(1);

		private int distinct;

		private String event;

		Lines(int total) {
			this.readAt = new long[total];
			this.counts = new int[total];
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public synchronized void onNext(String line) {
			long now = System.nanoTime();
			if (line.equals(":open")) {
				this.opened.countDown();
			}
			else if (line.startsWith("event:")) {
				this.event = line.substring(6).trim();
			}
			else if (line.startsWith("data:") && "entry_appended".equals(this.event)) {
				Matcher seq = SEQ.matcher(line);
				if (seq.find()) {
					int n = Integer.parseInt(seq.group(1));
					if (n < this.counts.length && this.counts[n]++ == 0) {
						this.readAt[n] = now;
						if (++this.distinct == this.counts.length) {
							this.complete.countDown();
						}
					}
				}
			}
		}

		@Override
		public void onError(Throwable error) {
			System.err.println("The event stream failed: " + error);
		}

		@Override
		public void onComplete() {
			System.err.println("The event stream ended");
		}

	}

}

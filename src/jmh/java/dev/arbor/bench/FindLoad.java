package dev.arbor.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Load client of {@code bench/find-sessions.sh} (docs/BENCHMARKS.md#finding-a-session-benchfind-sessionssh): finding
 * a session in a folder written by {@link SessionFolder}, on a server that has just started on it. JDK only.
 * Phases, each printed as Markdown as it ends:
 * <ol>
 * <li>indexing: {@code GET /search} polled until its answer is no longer {@code partial}; entries per second from the
 * server's start, and the index's size against the folder's;</li>
 * <li>search: {@code queries} requests of each kind, one after the other on one connection: one word (common to rare
 * by the vocabulary's ranks), two words, a phrase; p50 and p99, beside {@code LC_ALL=C grep -rlF} over the same
 * folder for the same words (the scan a user would do otherwise; for two words, the scan for the first, which is
 * less than a scan for both);</li>
 * <li>fresh: {@code fresh} appends of a message with a word of its own, each searched for every 5 ms until found;
 * the time from before the append to the first answer that has it;</li>
 * <li>listing: {@code GET /sessions?limit=50} and {@code GET /sessions/{id}/leaf} in turn, p50 of each; then the
 * whole listing read page by page, as pi's {@code SessionManager.listAll} reads every file (the script times that
 * beside it).</li>
 * </ol>
 * Usage: {@code FindLoad <base URL> <folder> <entries in the folder> <when the server was started, in seconds since the epoch>}. Settings
 * (system properties): {@code find.queries} 100, {@code find.fresh} 100, {@code find.pid} the server's process id (on
 * Linux: the CPU time of the server and of its index thread, read from {@code /proc}, when indexing is done).
 */
public final class FindLoad {

	private static final HttpClient HTTP = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(10))
		.build();

	private static final Pattern PARTIAL = Pattern.compile("\"partial\"\\s*:\\s*(true|false)");

	private static final Pattern TOTAL = Pattern.compile("\"total\"\\s*:\\s*(\\d+)");

	private static final Pattern NEXT = Pattern.compile("\"nextCursor\"\\s*:\\s*\"([^\"]+)\"");

	private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

	/** The name of FileSearch's writer thread as Linux keeps it (15 characters). */
	private static final String INDEX_THREAD = "arbor-search-in";

	private static String base;

	private FindLoad() {
	}

	public static void main(String[] args) throws Exception {
		base = args[0];
		Path folder = Path.of(args[1]);
		long entries = Long.parseLong(args[2]);
		double startedAt = Double.parseDouble(args[3]);
		int queries = Integer.getInteger("find.queries", 100);
		int fresh = Integer.getInteger("find.fresh", 100);

		while (partial(get("/search?limit=1&q=" + SessionFolder.word(0)))) {
			TimeUnit.MILLISECONDS.sleep(250);
		}
		// from the wall clock, the script's and this JVM's: this JVM's own start is then counted too
		double indexSeconds = System.currentTimeMillis() / 1e3 - startedAt;
		long indexBytes = bytes(folder.resolve(".arbor").resolve("search"), "");
		long folderBytes = bytes(folder, ".jsonl");
		System.out.println("| indexing | |");
		System.out.println("|---|---:|");
		System.out.printf(Locale.ROOT, "| entries | %,d |%n| complete after (from the server's start) | %.1f s |%n", entries,
				indexSeconds);
		System.out.printf(Locale.ROOT, "| rate | %,.0f entries/s |%n", entries / indexSeconds);
		String pid = System.getProperty("find.pid");
		if (pid != null) {
			// CPU time does not depend on what else runs on the machine, as wall-clock time does
			double indexCpu = cpuSeconds(pid, INDEX_THREAD);
			System.out.printf(Locale.ROOT, "| CPU time of the server since its start / of its index thread | %.1f s / %.1f s |%n",
					cpuSeconds(pid), indexCpu);
			System.out.printf(Locale.ROOT, "| rate per CPU second of the index thread | %,.0f entries/s |%n",
					entries / indexCpu);
		}
		System.out.printf(Locale.ROOT, "| index / folder | %s / %s (%.0f %%) |%n%n", mb(indexBytes), mb(folderBytes),
				100.0 * indexBytes / folderBytes);

		System.out.println("| query | matches | Arbor p50 | Arbor p99 | grep -rlF (median of 3) | grep / Arbor p50 | grep / Arbor p99 |");
		System.out.println("|---|---:|---:|---:|---:|---:|---:|");
		for (int rank : new int[] { 3, 30, 300, 3000 }) {
			String word = SessionFolder.word(rank);
			measure("one word, rank " + rank + ": `" + word + "`", word, word, queries, folder);
		}
		measure("two words: `" + SessionFolder.word(10) + " " + SessionFolder.word(200) + "`",
				SessionFolder.word(10) + " " + SessionFolder.word(200), SessionFolder.word(10), queries, folder);
		String phrase = SessionFolder.word(0) + " " + SessionFolder.word(1);
		measure("phrase: `\"" + phrase + "\"`", "\"" + phrase + "\"", phrase, queries, folder);

		String session = match(ID, get("/sessions?limit=1"));
		double[] freshMillis = new double[fresh];
		for (int i = 0; i < fresh; i++) {
			String word = "fresh" + Integer.toString(i, 36) + "zq" + System.nanoTime() % 1000;
			long before = System.nanoTime();
			HttpResponse<String> appended = send(HttpRequest.newBuilder(URI.create(base + "/sessions/" + session + "/entries"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(
						"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"look for " + word + "\"}}")));
			if (appended.statusCode() != 201) {
				throw new IllegalStateException("append answered " + appended.statusCode() + ": " + appended.body());
			}
			while (total(get("/search?limit=1&q=" + word)) == 0) {
				if (System.nanoTime() - before > TimeUnit.SECONDS.toNanos(30)) {
					throw new IllegalStateException(word + " not found 30 s after its append");
				}
				TimeUnit.MILLISECONDS.sleep(5);
			}
			freshMillis[i] = (System.nanoTime() - before) / 1e6;
		}
		System.out.printf(Locale.ROOT, "%nAn append found by search: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d appends)%n%n",
				percentile(freshMillis, 50), percentile(freshMillis, 99), percentile(freshMillis, 100), fresh);

		double[] list = new double[queries];
		double[] leaf = new double[queries];
		for (int i = 0; i < queries; i++) {
			list[i] = timed("/sessions?limit=50");
			leaf[i] = timed("/sessions/" + session + "/leaf");
		}
		long whole = System.nanoTime();
		int sessions = 0;
		String cursor = null;
		do {
			String page = get("/sessions?limit=500" + ((cursor == null) ? "" : "&cursor=" + cursor));
			sessions += count(page, "\"changedAt\"");
			cursor = find(NEXT, page);
		}
		while (cursor != null);
		double wholeMillis = (System.nanoTime() - whole) / 1e6;
		System.out.println("| listing | p50 | p99 |");
		System.out.println("|---|---:|---:|");
		System.out.printf(Locale.ROOT, "| `GET /sessions?limit=50` | %.2f ms | %.2f ms |%n", percentile(list, 50),
				percentile(list, 99));
		System.out.printf(Locale.ROOT, "| `GET /sessions/{id}/leaf` | %.2f ms | %.2f ms |%n", percentile(leaf, 50),
				percentile(leaf, 99));
		System.out.printf(Locale.ROOT, "%nThe listing over the leaf, p50: %.2f×. The whole listing (%,d sessions, pages "
				+ "of 500): %.0f ms%n", percentile(list, 50) / percentile(leaf, 50), sessions, wholeMillis);
	}

	private static void measure(String label, String query, String grepFor, int queries, Path folder)
			throws IOException, InterruptedException {
		String path = "/search?limit=20&q=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
		long matches = total(get(path));
		double[] millis = new double[queries];
		for (int i = 0; i < queries; i++) {
			millis[i] = timed(path);
		}
		double[] grep = new double[3];
		for (int i = 0; i < grep.length; i++) {
			long start = System.nanoTime();
			ProcessBuilder process = new ProcessBuilder("grep", "-rlF", "--include=*.jsonl", grepFor, folder.toString())
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.INHERIT);
			process.environment().put("LC_ALL", "C");
			process.start().waitFor();
			grep[i] = (System.nanoTime() - start) / 1e6;
		}
		double grepMedian = percentile(grep, 50);
		double p99 = percentile(millis, 99);
		double p50 = percentile(millis, 50);
		System.out.printf(Locale.ROOT, "| %s | %,d | %.1f ms | %.1f ms | %.0f ms | %.1f× | %.1f× |%n", label, matches, p50,
				p99, grepMedian, grepMedian / p50, grepMedian / p99);
	}

	private static double timed(String path) throws IOException, InterruptedException {
		long start = System.nanoTime();
		get(path);
		return (System.nanoTime() - start) / 1e6;
	}

	private static String get(String path) throws IOException, InterruptedException {
		HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + path)).GET());
		if (response.statusCode() != 200) {
			throw new IllegalStateException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
		}
		return response.body();
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return HTTP.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static boolean partial(String answer) {
		Matcher partial = PARTIAL.matcher(answer);
		return partial.find() && Boolean.parseBoolean(partial.group(1));
	}

	private static long total(String answer) {
		return Long.parseLong(match(TOTAL, answer));
	}

	private static String match(Pattern pattern, String text) {
		String found = find(pattern, text);
		if (found == null) {
			throw new IllegalStateException("no " + pattern + " in " + text.substring(0, Math.min(300, text.length())));
		}
		return found;
	}

	private static String find(Pattern pattern, String text) {
		Matcher matcher = pattern.matcher(text);
		return matcher.find() ? matcher.group(1) : null;
	}

	private static int count(String text, String what) {
		int count = 0;
		for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
			count++;
		}
		return count;
	}

	private static long bytes(Path dir, String suffix) throws IOException {
		if (!Files.isDirectory(dir)) {
			return 0;
		}
		try (Stream<Path> files = Files.walk(dir)) {
			return files.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(suffix)).mapToLong(file -> {
				try {
					return Files.size(file);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			}).sum();
		}
	}

	/** User and system CPU time of a process, from {@code /proc} (clock ticks of 10 ms, as on every Linux here). */
	private static double cpuSeconds(String pid) throws IOException {
		return ticks(Path.of("/proc", pid, "stat")) / 100.0;
	}

	/** User and system CPU time of a process's threads of one name. */
	private static double cpuSeconds(String pid, String thread) throws IOException {
		long ticks = 0;
		try (Stream<Path> tasks = Files.list(Path.of("/proc", pid, "task"))) {
			for (Path task : tasks.toList()) {
				if (Files.readString(task.resolve("comm")).strip().equals(thread)) {
					ticks += ticks(task.resolve("stat"));
				}
			}
		}
		return ticks / 100.0;
	}

	private static long ticks(Path stat) throws IOException {
		String line = Files.readString(stat);
		// the fields after the command name, which is in parentheses and may hold spaces
		String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
		return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
	}

	private static double percentile(double[] values, double percent) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int index = (int) Math.ceil(percent / 100 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	private static String mb(long bytes) {
		return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
	}

}

package dev.arbor.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A folder of sessions as pi writes them, for {@code bench/find-sessions.sh}
 * (docs/BENCHMARKS.md#finding-a-session-benchfind-sessionssh): {@code sessions} sessions of {@code entries} entries on
 * average, in pi's {@code --<cwd>--} folders (one per working directory, 50 of them), each a chain of turns (a user
 * message, an assistant message with a tool call, its tool result, the assistant's answer) and one session in ten
 * named with a {@code session_info} entry. The words come from a vocabulary of 20,000 made-up words drawn by Zipf's
 * law, as words in text are, so that a query for a common word matches much and one for a rare word little:
 * {@link #word(int)} gives the word of a rank, for the load client to pick its queries by how common they are.
 * Deterministic: the same arguments write the same bytes.
 * <p>
 * Usage: {@code SessionFolder <folder> [sessions] [entries]} (defaults 10,000 and 100); prints the entries and bytes
 * written.
 */
public final class SessionFolder {

	static final int VOCABULARY = 20_000;

	static final int FOLDERS = 50;

	private static final String[] SYLLABLES = { "ka", "lo", "mi", "ren", "sa", "tor", "vel", "qui", "zan", "dor",
			"fe", "gil", "ha", "jun", "ne", "ox", "pra", "stu", "wy", "bri" };

	/** Cumulative Zipf weights (exponent 1.07) over the ranks, for drawing a rank by binary search. */
	private static final double[] CUMULATIVE = new double[VOCABULARY];

	static {
		double sum = 0;
		for (int rank = 0; rank < VOCABULARY; rank++) {
			sum += 1 / Math.pow(rank + 1, 1.07);
			CUMULATIVE[rank] = sum;
		}
		for (int rank = 0; rank < VOCABULARY; rank++) {
			CUMULATIVE[rank] /= sum;
		}
	}

	private final SplittableRandom random;

	private long epochMillis = Instant.parse("2026-01-05T09:00:00Z").toEpochMilli();

	private int entryCounter;

	private long sessionSalt;

	private SessionFolder(long seed) {
		this.random = new SplittableRandom(seed);
	}

	public static void main(String[] args) throws IOException {
		Path folder = Path.of(args[0]);
		int sessions = (args.length > 1) ? Integer.parseInt(args[1]) : 10_000;
		int entries = (args.length > 2) ? Integer.parseInt(args[2]) : 100;
		SessionFolder generator = new SessionFolder(42);
		long written = 0;
		long bytes = 0;
		for (int s = 0; s < sessions; s++) {
			Path file = generator.writeSession(folder, s, entries);
			written += generator.entryCounter;
			bytes += Files.size(file);
		}
		System.out.printf(Locale.ROOT, "%d sessions, %d entries, %d bytes in %s%n", sessions, written, bytes, folder);
	}

	/** The word of a rank (0 the most common): syllables spelling the rank, so every word is distinct. */
	static String word(int rank) {
		StringBuilder word = new StringBuilder();
		int rest = rank;
		do {
			word.append(SYLLABLES[rest % SYLLABLES.length]);
			rest /= SYLLABLES.length;
		}
		while (rest > 0);
		if (word.length() < 4) {
			word.append("ix");
		}
		return word.toString();
	}

	private Path writeSession(Path folder, int index, int averageEntries) throws IOException {
		String cwd = "/home/dev/project-" + (index % FOLDERS);
		Path dir = folder.resolve("--" + cwd.substring(1).replace('/', '-') + "--");
		Files.createDirectories(dir);
		String id = String.format(Locale.ROOT, "%08x-0000-4000-8000-%012x", index, (long) index * 7919);
		this.epochMillis += 60_000 + this.random.nextInt(3_600_000);
		String stamp = Instant.ofEpochMilli(this.epochMillis).toString();
		Path file = dir.resolve(stamp.replace(':', '-').replace('.', '-') + "_" + id + ".jsonl");
		int count = averageEntries / 2 + this.random.nextInt(averageEntries + 1);
		this.entryCounter = 0;
		this.sessionSalt = index * 1_000_003L;
		try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
			out.write("{\"type\":\"session\",\"version\":3,\"id\":\"" + id + "\",\"timestamp\":\"" + stamp + "\",\"cwd\":\""
					+ cwd + "\"}\n");
			String parent = null;
			if (index % 10 == 0) {
				parent = entry(out, parent, "{\"type\":\"session_info\",", "\"name\":\"" + words(3) + "\"}");
			}
			while (this.entryCounter < count) {
				parent = turn(out, parent);
			}
		}
		return file;
	}

	private String turn(BufferedWriter out, String parent) throws IOException {
		String user = entry(out, parent, "{\"type\":\"message\",",
				"\"message\":{\"role\":\"user\",\"content\":\"" + words(8 + this.random.nextInt(30)) + "\",\"timestamp\":"
						+ this.epochMillis + "}}");
		String call = "toolu_" + Integer.toHexString(this.entryCounter) + Long.toHexString(this.epochMillis);
		String assistant = entry(out, user, "{\"type\":\"message\",",
				"\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"" + words(10 + this.random.nextInt(40))
						+ "\"},{\"type\":\"toolCall\",\"id\":\"" + call + "\",\"name\":\"bash\",\"arguments\":{\"command\":\"grep -rn "
						+ word(rank()) + " src\"}}],\"api\":\"anthropic-messages\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\","
						+ "\"usage\":{\"input\":1200,\"output\":310,\"cacheRead\":0,\"cacheWrite\":0,\"totalTokens\":1510,\"cost\":{\"input\":0.0036,"
						+ "\"output\":0.00465,\"cacheRead\":0,\"cacheWrite\":0,\"total\":0.00825}},\"stopReason\":\"toolUse\",\"timestamp\":"
						+ this.epochMillis + "}}");
		String result = entry(out, assistant, "{\"type\":\"message\",",
				"\"message\":{\"role\":\"toolResult\",\"toolCallId\":\"" + call + "\",\"toolName\":\"bash\",\"content\":[{\"type\":\"text\",\"text\":\""
						+ words(20 + this.random.nextInt(60)) + "\"}],\"isError\":false,\"timestamp\":" + this.epochMillis + "}}");
		return entry(out, result, "{\"type\":\"message\",",
				"\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"" + words(10 + this.random.nextInt(40))
						+ "\"}],\"api\":\"anthropic-messages\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\","
						+ "\"usage\":{\"input\":1600,\"output\":120,\"cacheRead\":0,\"cacheWrite\":0,\"totalTokens\":1720,\"cost\":{\"input\":0.0048,"
						+ "\"output\":0.0018,\"cacheRead\":0,\"cacheWrite\":0,\"total\":0.0066}},\"stopReason\":\"stop\",\"timestamp\":"
						+ this.epochMillis + "}}");
	}

	/** Writes one entry line: {@code head} opens the object, the id, parent and timestamp follow, then {@code rest}. */
	private String entry(BufferedWriter out, String parent, String head, String rest) throws IOException {
		this.epochMillis += 500 + this.random.nextInt(20_000);
		this.entryCounter++;
		// the counter times an odd number is a bijection on 32 bits: no id repeats within a session
		String id = String.format(Locale.ROOT, "%08x", (this.sessionSalt + this.entryCounter) * 0x9E3779B1L & 0xFFFFFFFFL);
		out.write(head + "\"id\":\"" + id + "\",\"parentId\":" + ((parent == null) ? "null" : "\"" + parent + "\"")
				+ ",\"timestamp\":\"" + Instant.ofEpochMilli(this.epochMillis) + "\"," + rest + "\n");
		return id;
	}

	private String words(int count) {
		List<String> words = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			words.add(word(rank()));
		}
		return String.join(" ", words);
	}

	private int rank() {
		double draw = this.random.nextDouble();
		int low = 0;
		int high = VOCABULARY - 1;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (CUMULATIVE[middle] < draw) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

}

package dev.arbor.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.Json;
import dev.arbor.session.Timestamps;
import org.jspecify.annotations.Nullable;

/**
 * A coding agent in a JVM of its own, writing a session file as pi and oh-my-pi do: {@code appendFileSync} (open in
 * append mode, one write, close), no lock. {@link #main} reads rounds on stdin, {@code <file> <seed> <lines>}, and
 * appends that many user messages, each chained to its previous one, in writes of every shape an agent makes: one
 * small line, one line over 64 KiB, several lines in one write, and a line in two writes with a pause between them
 * (what a reader sees of a write in progress). It prints the id of each line once its last byte is written, then
 * {@code done}.
 * <p>
 * The test side ({@link #start}, {@link #round}) is not thread-safe: one test thread drives it.
 */
final class AgentProcess implements AutoCloseable {

	static final String DONE = "done";

	private final Process process;

	private final BufferedReader out;

	private final OutputStream in;

	private AgentProcess(Process process) {
		this.process = process;
		this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		this.in = process.getOutputStream();
	}

	static AgentProcess start(Path stderr) throws IOException {
		String java = ProcessHandle.current().info().command().orElseThrow();
		ProcessBuilder builder = new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx128m",
				"-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), AgentProcess.class.getName());
		builder.redirectError(stderr.toFile());
		return new AgentProcess(builder.start());
	}

	/** Has the agent append to the file and returns the ids it wrote, in the order it finished them. */
	List<String> round(Path file, long seed, int lines) throws IOException {
		this.in.write((file + "\t" + seed + "\t" + lines + "\n").getBytes(StandardCharsets.UTF_8));
		this.in.flush();
		List<String> ids = new ArrayList<>();
		String line;
		while ((line = this.out.readLine()) != null && !DONE.equals(line)) {
			ids.add(line);
		}
		if (line == null) {
			throw new IOException("The agent process ended");
		}
		return ids;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

	public static void main(String[] args) throws IOException, InterruptedException {
		BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String command;
		while ((command = commands.readLine()) != null) {
			String[] parts = command.split("\t");
			Path file = Path.of(parts[0]);
			Random random = new Random(Long.parseLong(parts[1]));
			int lines = Integer.parseInt(parts[2]);
			String parent = null;
			int written = 0;
			while (written < lines) {
				int shape = random.nextInt(10);
				if (shape < 5) { // one small line
					parent = write(file, Collections.singletonList(line(random, parent, 20 + random.nextInt(300))));
				}
				else if (shape < 6) { // one line over 64 KiB
					parent = write(file, Collections.singletonList(line(random, parent, 65 * 1024 + random.nextInt(16 * 1024))));
				}
				else if (shape < 8) { // several lines in one write
					List<String[]> batch = new ArrayList<>();
					int count = Math.min(2 + random.nextInt(4), lines - written);
					for (int i = 0; i < count; i++) {
						String[] next = line(random, parent, 20 + random.nextInt(2_000));
						batch.add(next);
						parent = next[0];
					}
					parent = write(file, batch);
					written += count - 1;
				}
				else { // one line in two writes, with a pause between them
					String[] next = line(random, parent, 50 + random.nextInt(3_000));
					byte[] bytes = (next[1] + "\n").getBytes(StandardCharsets.UTF_8);
					int split = 1 + random.nextInt(bytes.length - 1);
					append(file, ByteBuffer.wrap(bytes, 0, split));
					Thread.sleep(10 + random.nextInt(90));
					append(file, ByteBuffer.wrap(bytes, split, bytes.length - split));
					System.out.println(next[0]);
					parent = next[0];
				}
				written++;
				System.out.flush();
				Thread.sleep(random.nextInt(4));
			}
			System.out.println(DONE);
			System.out.flush();
		}
	}

	/** Appends lines in one write and prints their ids; returns the last id. */
	private static String write(Path file, List<String[]> lines) throws IOException {
		StringBuilder text = new StringBuilder();
		for (String[] line : lines) {
			text.append(line[1]).append('\n');
		}
		append(file, ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
		for (String[] line : lines) {
			System.out.println(line[0]);
		}
		return lines.get(lines.size() - 1)[0];
	}

	/** {@code appendFileSync}: open in append mode (creating the file), one write, close. */
	private static void append(Path file, ByteBuffer bytes) throws IOException {
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.APPEND)) {
			while (bytes.hasRemaining()) {
				channel.write(bytes);
			}
		}
	}

	/** A user message as upstream writes it, with an id no Arbor entry has ({@code x} and seven hex digits). */
	private static String[] line(Random random, @Nullable String parentId, int textLength) {
		String id = "x" + HexFormat.of().toHexDigits(random.nextInt()).substring(1);
		String text = "agent " + id + " " + "y".repeat(textLength);
		String json = "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":"
				+ ((parentId != null) ? "\"" + parentId + "\"" : "null") + ",\"timestamp\":\""
				+ Timestamps.format(Instant.now()) + "\",\"message\":{\"role\":\"user\",\"content\":" + Json.quote(text)
				+ "}}";
		return new String[] { id, json };
	}

}

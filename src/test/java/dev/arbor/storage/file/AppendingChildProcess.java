package dev.arbor.storage.file;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A running {@link AppendingChild} in its own JVM: its stdout is read line by line on a daemon thread, and
 * {@link #kill} sends SIGKILL ({@link ProcessHandle#destroyForcibly()} on Linux), so the child gets no chance to
 * flush, close or release anything itself.
 * <p>
 * Not thread-safe: one test thread drives it.
 */
final class AppendingChildProcess implements AutoCloseable {

	/** What {@link AppendingChild} prints for an acknowledged entry. */
	private static final Pattern ENTRY_ID = Pattern.compile("[0-9a-f]{8}");

	/** Generous: a cold JVM on a busy 2-core machine, and a repair rewrite before the first id. */
	private static final Duration LINE_TIMEOUT = Duration.ofSeconds(60);

	private static final String END = "\u0000end";

	private final Process process;

	private final Path stderr;

	private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

	private final Thread reader;

	private final List<String> acknowledged = new ArrayList<>();

	private @Nullable String sessionId;

	private int refusals;

	private boolean ended;

	private AppendingChildProcess(Process process, Path stderr) {
		this.process = process;
		this.stderr = stderr;
		this.reader = new Thread(this::readLines, "child-stdout-" + process.pid());
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/**
	 * Starts a child that will append to {@code sessionId} under {@code storageDir}, or to a session it creates
	 * when {@code sessionId} is {@code null}, once told to {@link #go}. It warms up and writes its stderr in
	 * {@code workDir}.
	 */
	static AppendingChildProcess start(Path storageDir, @Nullable String sessionId, long seed, Path workDir)
			throws IOException {
		String java = ProcessHandle.current().info().command().orElseThrow();
		Path stderr = Files.createTempFile(workDir, "child-", ".log");
		// Lean flags: JVM startup is most of a round's cost.
		ProcessBuilder builder = new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx256m",
				"-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), AppendingChild.class.getName(),
				storageDir.toString(), (sessionId != null) ? sessionId : "-", Long.toString(seed), workDir.toString());
		builder.redirectError(stderr.toFile());
		return new AppendingChildProcess(builder.start(), stderr);
	}

	/** Lets the child open the store and start appending. */
	void go() throws IOException {
		this.process.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
		this.process.getOutputStream().flush();
	}

	/** The session the child appends to, once it said so (a session it created). */
	String awaitSessionId() throws InterruptedException {
		while (this.sessionId == null) {
			nextLine();
		}
		return this.sessionId;
	}

	/** Returns once the child has acknowledged at least {@code count} entries. */
	void awaitAcknowledged(int count) throws InterruptedException {
		while (this.acknowledged.size() < count) {
			nextLine();
		}
	}

	/**
	 * Returns once the child reported at least {@code count} appends refused because the session was locked, or
	 * as soon as it acknowledged one.
	 */
	void awaitRefusals(int count) throws InterruptedException {
		while (this.refusals < count && this.acknowledged.isEmpty()) {
			nextLine();
		}
	}

	/** The entries acknowledged so far, as far as this side has read. */
	List<String> acknowledged() {
		return List.copyOf(this.acknowledged);
	}

	/** How many refusals this side has read so far. */
	int refusals() {
		return this.refusals;
	}

	/**
	 * Sends SIGKILL, waits for the process to end and reads what it printed before: every id it printed was
	 * acknowledged, even those this side had not read yet.
	 *
	 * @return every acknowledged entry id, in order
	 */
	List<String> kill() throws InterruptedException {
		// Through the handle: Process.destroyForcibly() also closes our end of stdout, dropping ids the child
		// printed that were not read yet. The handle only sends the signal; the pipe is read to its end below.
		this.process.toHandle().destroyForcibly();
		if (!this.process.waitFor(LINE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
			throw new IllegalStateException("Child " + this.process.pid() + " survived SIGKILL");
		}
		while (!this.ended) {
			nextLine();
		}
		this.reader.join();
		return List.copyOf(this.acknowledged);
	}

	/** Kills the child if it still runs: for a test that failed before {@link #kill}. */
	@Override
	public void close() {
		this.process.destroyForcibly();
	}

	private void nextLine() throws InterruptedException {
		if (this.ended) {
			throw new IllegalStateException("Child ended early (exit " + exitValueOrRunning() + "): " + stderrText());
		}
		String line = this.lines.poll(LINE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		if (line == null) {
			this.process.destroyForcibly();
			throw new IllegalStateException("Child printed nothing for " + LINE_TIMEOUT + ": " + stderrText());
		}
		if (line.equals(END)) {
			this.ended = true;
		}
		else if (line.startsWith(AppendingChild.SESSION_PREFIX)) {
			this.sessionId = line.substring(AppendingChild.SESSION_PREFIX.length());
		}
		else if (line.equals(AppendingChild.LOCKED)) {
			this.refusals++;
		}
		else if (ENTRY_ID.matcher(line).matches()) {
			this.acknowledged.add(line);
		}
		// Anything else is a line cut short by the kill: a pipe write of one short line is atomic, so this
		// does not happen, and if it did the id was not printed whole, so it was not acknowledged.
	}

	private void readLines() {
		try (BufferedReader in = this.process.inputReader(StandardCharsets.UTF_8)) {
			String line;
			while ((line = in.readLine()) != null) {
				this.lines.add(line);
			}
		}
		catch (IOException ex) {
			// The pipe closes when the child dies: what was read is what was printed.
		}
		finally {
			this.lines.add(END);
		}
	}

	private String exitValueOrRunning() {
		return this.process.isAlive() ? "running" : Integer.toString(this.process.exitValue());
	}

	private String stderrText() {
		try {
			return Files.readString(this.stderr);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

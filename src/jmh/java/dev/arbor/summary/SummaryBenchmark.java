package dev.arbor.summary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryTypes;
import dev.arbor.storage.BenchSessions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What Arbor does before a summary request leaves (docs/SESSION-FORMAT.md#navigation), with every entry of the session
 * as the abandoned branch: the transcript within the default budget (128,000 − 16,384 tokens), and the files of all the
 * branch's tool calls. The model's own time is not here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch" })
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SummaryBenchmark {

	private static final int DEFAULT_BUDGET = 128_000 - 16_384;

	@Param({ "fixture", "32MB" })
	public String session;

	private List<EntryLine> abandoned;

	@Setup(Level.Trial)
	public void loadSession() throws IOException {
		Path dir = Files.createTempDirectory("arbor-bench-summary");
		try {
			this.abandoned = new ArrayList<>();
			for (String line : Files.readAllLines(BenchSessions.create(this.session, dir))) {
				if (line.startsWith("{") && line.contains("\"parentId\"")) {
					EntryLine entry = EntryLine.of(line.getBytes(java.nio.charset.StandardCharsets.UTF_8));
					if (!entry.isType(EntryTypes.SESSION)) {
						this.abandoned.add(entry);
					}
				}
			}
		}
		finally {
			BenchSessions.deleteRecursively(dir);
		}
	}

	/** The transcript: newest first until the budget is full, so the work stops at the budget. */
	@Benchmark
	public BranchConversation conversation() {
		return BranchConversation.of(this.abandoned, DEFAULT_BUDGET);
	}

	/** The files of every abandoned tool call and earlier summary: the whole branch is read. */
	@Benchmark
	public FileOperations files() {
		return FileOperations.of(this.abandoned);
	}

}

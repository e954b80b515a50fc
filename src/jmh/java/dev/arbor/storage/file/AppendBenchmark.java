package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.arbor.Fixtures;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.storage.BenchSessions;
import dev.arbor.storage.ExpectedLeaf;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.node.ObjectNode;

/**
 * Appends to one session through {@link FileSessionStore}: one user message (about 300 bytes) per
 * call, acknowledged after fsync with {@link FsyncPolicy#ALWAYS}. With 8 threads on the same
 * session, group commit lets the waiting callers share fsyncs. The session starts as a copy of the
 * v3 fixture in a temp directory on the same disk as the work tree.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
public class AppendBenchmark {

	private static final String MESSAGE = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\","
			+ "\"text\":\"read packages/coding-agent/docs/theme.md in full, then theme.ts, and then the selectors. "
			+ "we still need to port the user message selector over.\"}],\"timestamp\":1763681630000}}";

	@Param({ "ALWAYS", "NEVER" })
	public FsyncPolicy fsync;

	private Path dir;

	private FileSessionStore store;

	private String sessionId;

	private ObjectNode draft;

	@Setup(Level.Trial)
	public void openStore() throws IOException {
		this.dir = Files.createTempDirectory("arbor-bench-append");
		Path file = Fixtures.copy(Fixtures.OMP_V3, this.dir);
		this.sessionId = SessionDirectory.readSessionId(file);
		this.store = new FileSessionStore(this.dir, this.fsync, Long.MAX_VALUE, Clock.systemUTC());
		this.draft = Json.parseObject(MESSAGE.getBytes(StandardCharsets.UTF_8));
		this.store.read(this.sessionId, tree -> tree.size()); // load before measuring
	}

	@TearDown(Level.Trial)
	public void closeStore() throws IOException {
		this.store.close();
		BenchSessions.deleteRecursively(this.dir);
	}

	@Benchmark
	@Threads(1)
	public List<EntryLine> appendOneThread() {
		return this.store.append(this.sessionId, ExpectedLeaf.ANY, List.of(this.draft));
	}

	@Benchmark
	@Threads(8)
	public List<EntryLine> appendEightThreads() {
		return this.store.append(this.sessionId, ExpectedLeaf.ANY, List.of(this.draft));
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.SessionTree;
import dev.arbor.session.SessionTreeView;
import dev.arbor.storage.BenchSessions;
import dev.arbor.storage.SessionFileReader;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Opening a session from disk: the file read, every line scanned, the tree built
 * (docs/SESSION-FORMAT.md#reading-a-file), then {@code getTree}. The file is written once per trial and stays in the
 * page cache, so this is the engine's cost, not the disk's. The heap is pre-touched, as in a server that has run for a
 * while (first touches of fresh memory are slow in this VM). See {@link ColdOpenBenchmark} for a first open in a fresh
 * JVM.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch" })
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 6, time = 2)
public class LoadBenchmark {

	@Param({ "fixture", "32MB", "128MB" })
	public String session;

	private Path dir;

	private Path file;

	private String sessionId;

	@Setup(Level.Trial)
	public void writeSession() throws IOException {
		this.dir = Files.createTempDirectory("arbor-bench-load");
		this.file = BenchSessions.create(this.session, this.dir);
		this.sessionId = SessionDirectory.readSessionId(this.file);
	}

	@TearDown(Level.Trial)
	public void deleteSession() throws IOException {
		BenchSessions.deleteRecursively(this.dir);
	}

	/** {@code SessionFileReader.read}: lines scanned, tree built. */
	@Benchmark
	public SessionTree open() throws IOException {
		return SessionFileReader.read(this.file).tree();
	}

	/** Open, then {@code getTree}: what the first {@code GET /sessions/{id}/tree} costs. */
	@Benchmark
	public SessionTreeView openAndGetTree() throws IOException {
		return SessionFileReader.read(this.file).tree().getTree();
	}

	/** The same through the public API: a fresh {@link FileSessionStore} scans the directory and loads on first read. */
	@Benchmark
	public SessionTreeView storeOpenAndGetTree() {
		try (FileSessionStore store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE,
				Clock.systemUTC())) {
			return store.read(this.sessionId, SessionTree::getTree);
		}
	}

}

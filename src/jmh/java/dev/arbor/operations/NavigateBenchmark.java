package dev.arbor.operations;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import dev.arbor.events.EventBus;
import dev.arbor.events.MemoryEventBus;
import dev.arbor.events.SessionHooks;
import dev.arbor.events.StoreEvents;
import dev.arbor.session.EntryLine;
import dev.arbor.session.NavigationPlan;
import dev.arbor.storage.BenchSessions;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.file.FsyncPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import org.springframework.core.task.SimpleAsyncTaskExecutor;

/**
 * {@code POST /sessions/{id}/navigate?context=false} without a summary, below HTTP: {@link Navigator#navigate} to
 * random entries of the generated 100,000- and 400,000-entry sessions (one chain, so the abandoned branch averages a
 * third of the session), with what a server wires around it: the store's changes go to the event bus
 * ({@code session_before_tree}, {@code leaf_changed}, {@code session_tree} and their replay), no hooks, and the leaf
 * sidecar fsynced on every move. The heap is the one docs/CONFIGURATION.md#memory gives for the 400,000-entry session
 * ({@code -Xmx320m}): the collector's pauses are part of the tail. Sample time, for the percentiles.
 * {@link #planToARandomEntry} is the engine's share: the plan alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx320m" })
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
public class NavigateBenchmark {

	/** What the server's replay may hold for all sessions: 5 % of -Xmx320m (HeapShares). */
	private static final long REPLAY_BYTES = 16 << 20;

	@Param({ "32MB", "128MB" })
	public String session;

	private Path dir;

	private FileSessionStore store;

	private Navigator navigator;

	private String sessionId;

	private List<String> targets;

	private int next;

	@Setup(Level.Trial)
	public void loadSession() throws IOException {
		this.dir = Files.createTempDirectory("arbor-bench-navigate");
		BenchSessions.create(this.session, this.dir);
		this.store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
		EventBus bus = new MemoryEventBus(1000, REPLAY_BYTES);
		this.store.addChangeListener(new StoreEvents(bus));
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		this.navigator = new Navigator(this.store, new SessionGates(), new InFlightNavigations(), bus,
				new SessionHooks(List.of(), new SimpleAsyncTaskExecutor("hook-"), meters), Optional.empty(), meters);
		this.sessionId = this.store.list().get(0).id();
		this.targets = new ArrayList<>(this.store.read(this.sessionId,
				tree -> tree.getEntries().stream().map(EntryLine::id).toList()));
		Collections.shuffle(this.targets, new Random(14));
	}

	@TearDown(Level.Trial)
	public void deleteSession() throws IOException {
		this.store.close();
		BenchSessions.deleteRecursively(this.dir);
	}

	/** The whole navigation: plan, event, hooks (none), the leaf moved and its sidecar fsynced, events. */
	@Benchmark
	public NavigationOutcome navigateToARandomEntry() {
		String target = this.targets.get(this.next++ % this.targets.size());
		return this.navigator.navigate(this.sessionId, ExpectedLeaf.ANY, new NavigationRequest(target, false, null, null),
				null);
	}

	/** The engine's part alone, under the read lock: the plan from the leaf to a random entry, nothing changed. */
	@Benchmark
	public NavigationPlan planToARandomEntry() {
		String target = this.targets.get(this.next++ % this.targets.size());
		return this.store.read(this.sessionId, tree -> NavigationPlan.of(tree, target));
	}

}

package dev.arbor.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.EntryLine;
import dev.arbor.session.RowFilter;
import dev.arbor.session.SessionTree;
import dev.arbor.session.TreeRow;
import dev.arbor.session.TreeRows;
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
 * The selector rows (docs/SESSION-FORMAT.md#the-selector-rows) of a loaded session, by what a page costs: the first
 * view of a tree just loaded (every entry's facts read, then the order and the view), the view rebuilt after a leaf
 * move (facts kept), a search, and a page of 100 rows cut from a view already kept. Run with the heap
 * docs/CONFIGURATION.md#memory recommends for the 128 MB session.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms320m", "-Xmx320m" })
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SelectorRowsBenchmark {

	private static final int PAGE = 100;

	@Param({ "32MB", "128MB" })
	public String session;

	private SessionTree loaded;

	private List<EntryLine> entries;

	private SessionTree fresh;

	@Setup(Level.Trial)
	public void loadSession() throws IOException {
		Path dir = Files.createTempDirectory("arbor-bench-rows");
		try {
			this.loaded = SessionFileReader.read(BenchSessions.create(this.session, dir)).tree();
		}
		finally {
			BenchSessions.deleteRecursively(dir);
		}
		this.entries = List.copyOf(this.loaded.getEntries());
	}

	/** A tree with no view kept yet, built outside the measurement. */
	@Setup(Level.Invocation)
	public void freshTree() {
		this.fresh = SessionTree.of(this.loaded.header(), this.loaded.titleSlot(), this.entries);
	}

	/** The first page of a session just loaded: what {@code GET …/tree/rows} costs first. */
	@Benchmark
	public List<TreeRow> firstPageOfAFreshTree() {
		TreeRows rows = this.fresh.getTreeRows(RowFilter.DEFAULT, null);
		return rows.rows(0, Math.min(PAGE, rows.matched()));
	}

	/** After a navigation: the leaf moves, and the next page rebuilds the order and the view. */
	@Benchmark
	public List<TreeRow> pageAroundTheSelectionAfterALeafMove() {
		this.loaded.branch(this.entries.get(ThreadLocalRandom.current().nextInt(this.entries.size())).id());
		TreeRows rows = this.loaded.getTreeRows(RowFilter.DEFAULT, null);
		int start = Math.max(0, Math.min(rows.selectedIndex() - PAGE / 2, rows.matched() - PAGE));
		return rows.rows(start, Math.min(start + PAGE, rows.matched()));
	}

	/** A page of 100 at a random place in a view already kept: every page after the first. */
	@Benchmark
	public List<TreeRow> nextPageOfAKeptView() {
		TreeRows rows = this.loaded.getTreeRows(RowFilter.DEFAULT, null);
		int start = ThreadLocalRandom.current().nextInt(Math.max(1, rows.matched() - PAGE));
		return rows.rows(start, Math.min(start + PAGE, rows.matched()));
	}

	/**
	 * A search's first page after a change: the view rebuilt over the searchable text, which the first invocation
	 * reads for every entry and the session then keeps.
	 */
	@Benchmark
	public List<TreeRow> firstPageOfASearch() {
		this.loaded.branch(this.loaded.leafId());
		TreeRows rows = this.loaded.getTreeRows(RowFilter.ALL, "theme selector");
		return rows.rows(0, Math.min(PAGE, rows.matched()));
	}

}

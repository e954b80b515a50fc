package dev.arbor.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.ContextMessage;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionContext;
import dev.arbor.session.SessionTree;
import dev.arbor.session.SessionTreeView;
import dev.arbor.session.TreeOutline;
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
 * Reads of a loaded session (docs/SESSION-FORMAT.md#the-tree and docs/SESSION-FORMAT.md#the-model-context):
 * {@code getTree}, the outline, {@code getPath} of the deepest entry, and {@code buildSessionContext} at the leaf in
 * the agent and the model view.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch" })
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TreeBenchmark {

	@Param({ "fixture", "32MB", "128MB" })
	public String session;

	private SessionTree tree;

	private String deepestId;

	@Setup(Level.Trial)
	public void loadSession() throws IOException {
		Path dir = Files.createTempDirectory("arbor-bench-tree");
		try {
			this.tree = SessionFileReader.read(BenchSessions.create(this.session, dir)).tree();
		}
		finally {
			BenchSessions.deleteRecursively(dir);
		}
		this.deepestId = deepest(this.tree);
		int depth = this.tree.getPath(this.deepestId).size();
		if (depth != this.tree.size()) {
			throw new IllegalStateException("Expected one chain of " + this.tree.size() + " entries, deepest is " + depth);
		}
	}

	@Benchmark
	public SessionTreeView getTree() {
		return this.tree.getTree();
	}

	/** The outline (docs/API.md#tree): one segment, as these sessions are one chain; walking it is the cost. */
	@Benchmark
	public TreeOutline getOutline() {
		return TreeOutline.of(this.tree);
	}

	@Benchmark
	public List<EntryLine> getPathOfDeepest() {
		return this.tree.getPath(this.deepestId);
	}

	/** {@code buildSessionContext} at the leaf, agent view: message entries referenced as stored. */
	@Benchmark
	public SessionContext buildSessionContext() {
		return this.tree.buildSessionContext();
	}

	/** The same, then {@code forModel()} (docs/SESSION-FORMAT.md#the-llm-view). */
	@Benchmark
	public SessionContext buildSessionContextForModel() {
		return this.tree.buildSessionContext().forModel();
	}

	/** The model view rendered to JSON text, message by message: what a response body is made of. */
	@Benchmark
	public long buildSessionContextForModelAsJson() {
		long chars = 0;
		for (ContextMessage message : this.tree.buildSessionContext().forModel().messages()) {
			chars += message.toJson().length();
		}
		return chars;
	}

	/** The entry with the longest path (parents precede children in these files). */
	private static String deepest(SessionTree tree) {
		Map<String, Integer> depths = new HashMap<>();
		String deepest = null;
		int max = 0;
		for (EntryLine entry : tree.getEntries()) {
			int depth = (entry.parentId() != null) ? depths.getOrDefault(entry.parentId(), 0) + 1 : 1;
			depths.put(entry.id(), depth);
			if (depth > max) {
				max = depth;
				deepest = entry.id();
			}
		}
		return deepest;
	}

}

package dev.arbor.storage;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import dev.arbor.session.SessionTree;
import org.openjdk.jol.info.GraphLayout;

/**
 * Heap held by a loaded session against its file size (the target of docs/BENCHMARKS.md#targets: at most 1.5x),
 * measured two ways for the fixture and the generated 32 MB and 128 MB sessions:
 * <ul>
 * <li>heap delta: used heap after {@code System.gc()} (repeated until it settles) with the loaded
 * session held, minus the same before loading;</li>
 * <li>JOL: the exact size of every object reachable from the {@link SessionTree}
 * ({@code GraphLayout.parseInstance(tree).totalSize()}).</li>
 * </ul>
 * Run by {@code ./mvnw -Pbench verify} (execution {@code memory}) in its own JVM; prints a table.
 */
public final class SessionMemory {

	private SessionMemory() {
	}

	public static void main(String[] args) throws IOException, InterruptedException {
		List<String> names = (args.length > 0) ? List.of(args) : List.of("fixture", "32MB", "128MB");
		System.out.println("GC: " + ManagementFactory.getGarbageCollectorMXBeans()
			.stream()
			.map(GarbageCollectorMXBean::getName)
			.collect(Collectors.joining(", ")) + "; max heap "
				+ Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
		System.out.printf("%-8s %8s %12s %12s %6s %12s %6s%n", "session", "entries", "file bytes", "heap delta",
				"ratio", "JOL bytes", "ratio");
		warmUp(); // class initialization and Jackson's caches would otherwise count towards the first session
		for (String name : names) {
			Path dir = Files.createTempDirectory("arbor-bench-memory");
			try {
				Path file = BenchSessions.create(name, dir);
				long fileBytes = Files.size(file);
				long before = usedHeapAfterGc();
				LoadedSession loaded = SessionFileReader.read(file);
				long after = usedHeapAfterGc();
				SessionTree tree = loaded.tree();
				long jol = GraphLayout.parseInstance(tree).totalSize();
				long delta = after - before;
				System.out.printf("%-8s %8d %12d %12d %6.2f %12d %6.2f%n", name, tree.size(), fileBytes, delta,
						(double) delta / fileBytes, jol, (double) jol / fileBytes);
				Reference.reachabilityFence(loaded);
			}
			finally {
				BenchSessions.deleteRecursively(dir);
			}
		}
	}

	private static void warmUp() throws IOException {
		Path dir = Files.createTempDirectory("arbor-bench-memory");
		try {
			SessionFileReader.read(BenchSessions.create("fixture", dir)).tree().getTree();
		}
		finally {
			BenchSessions.deleteRecursively(dir);
		}
	}

	/** Used heap once full collections stop freeing anything. */
	private static long usedHeapAfterGc() throws InterruptedException {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 10; i++) {
			System.gc();
			Thread.sleep(100);
			long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
			if (i >= 2 && Math.abs(used - now) < (1 << 16)) {
				return now;
			}
			used = now;
		}
		return used;
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent appends without {@code If-Match} (docs/SESSION-FORMAT.md#durability-and-concurrency): one writer per
 * session at a time, so no line is torn, interleaved or lost, every acknowledged id is in the file once, and what a new
 * store reads back is the tree the old one held. Within one session the appends form one chain, each the child of the
 * leaf it was written after.
 */
class ConcurrentAppendTests {

	private static final int THREADS = 8;

	private static final int APPENDS_PER_THREAD = 500;

	private static final int SESSIONS = 8;

	@TempDir
	Path dir;

	@Test
	void appendWhenEightThreadsShareOneSessionShouldFormOneChainOfWholeLines() throws Exception {
		List<Appended> appended;
		Map<String, TreeSnapshot> inMemory;
		Map<String, Path> files;
		try (FileSessionStore store = newStore(FsyncPolicy.ALWAYS, Long.MAX_VALUE)) { // group commit
			String sessionId = store.create("/concurrent", null, null).id();
			appended = appendConcurrently(store, thread -> sessionId);
			inMemory = snapshots(store, List.of(sessionId));
			files = Map.of(sessionId, store.get(sessionId).file());
		}
		assertSessions(appended, inMemory, files, "");
		assertThat(inMemory.get(files.keySet().iterator().next()).ids()).hasSize(THREADS * APPENDS_PER_THREAD);
	}

	@Test
	void appendWhenEachThreadHasItsOwnSessionShouldKeepEverySessionWhole() throws Exception {
		List<Appended> appended;
		Map<String, TreeSnapshot> inMemory;
		Map<String, Path> files;
		try (FileSessionStore store = newStore(FsyncPolicy.NEVER, Long.MAX_VALUE)) { // sessions share no fsync
			List<String> sessionIds = createSessions(store);
			appended = appendConcurrently(store, thread -> sessionIds.get(thread));
			inMemory = snapshots(store, sessionIds);
			files = paths(store, sessionIds);
		}
		assertSessions(appended, inMemory, files, "");
		assertThat(inMemory.values()).allSatisfy(tree -> assertThat(tree.ids()).hasSize(APPENDS_PER_THREAD));
	}

	@Test
	void appendWhenThreadsPickSessionsAtRandomShouldKeepEverySessionWhole() throws Exception {
		assertRandomSessions(FsyncPolicy.ALWAYS, Long.MAX_VALUE);
	}

	@Test
	void appendWhenThreadsPickSessionsAtRandomAndIdleSessionsAreUnloadedShouldLoseNothing() throws Exception {
		// A budget below the sessions' size: sessions are unloaded and reloaded while others wait for fsyncs.
		assertRandomSessions(FsyncPolicy.ALWAYS, 64 * 1024);
	}

	private void assertRandomSessions(FsyncPolicy fsync, long cacheBudgetBytes) throws Exception {
		long seed = System.nanoTime();
		List<Appended> appended;
		Map<String, TreeSnapshot> inMemory;
		Map<String, Path> files;
		try (FileSessionStore store = newStore(fsync, cacheBudgetBytes)) {
			List<String> sessionIds = createSessions(store);
			Random[] randoms = new Random[THREADS];
			for (int thread = 0; thread < THREADS; thread++) {
				randoms[thread] = new Random(seed + thread);
			}
			appended = appendConcurrently(store, thread -> sessionIds.get(randoms[thread].nextInt(SESSIONS)));
			inMemory = snapshots(store, sessionIds);
			files = paths(store, sessionIds);
		}
		assertSessions(appended, inMemory, files, "seed " + seed + ": ");
	}

	/**
	 * Per session: every line is whole JSON, the file is the header and exactly the acknowledged entries, each
	 * once and with its own content, each thread's entries in the order it appended them, one chain, and a new
	 * store reads back the tree the old one held.
	 */
	private void assertSessions(List<Appended> appended, Map<String, TreeSnapshot> inMemory, Map<String, Path> files,
			String context) throws IOException {
		assertThat(appended).as(context).hasSize(THREADS * APPENDS_PER_THREAD);
		Map<String, List<Appended>> bySession = appended.stream()
			.collect(Collectors.groupingBy(Appended::sessionId, LinkedHashMap::new, Collectors.toList()));
		assertThat(bySession.keySet()).as(context).isSubsetOf(inMemory.keySet());
		try (FileSessionStore reopened = newStore(FsyncPolicy.NEVER, Long.MAX_VALUE)) {
			for (Map.Entry<String, TreeSnapshot> session : inMemory.entrySet()) {
				String sessionId = session.getKey();
				String description = context + "session " + sessionId;
				List<Appended> acknowledged = bySession.getOrDefault(sessionId, List.of());
				List<ObjectNode> lines = wholeLines(files.get(sessionId), description);
				assertThat(lines).as(description).hasSize(1 + acknowledged.size());
				assertThat(lines.get(0).get("type").asString()).as(description).isEqualTo("session");
				List<ObjectNode> entries = lines.subList(1, lines.size());
				List<String> fileIds = entries.stream().map(entry -> entry.get("id").asString()).toList();
				assertThat(fileIds).as(description)
					.doesNotHaveDuplicates()
					.containsExactlyInAnyOrderElementsOf(acknowledged.stream().map(Appended::id).toList());
				Map<String, String> contentById = new HashMap<>();
				for (ObjectNode entry : entries) {
					contentById.put(entry.get("id").asString(), entry.get("message").get("content").asString());
				}
				for (Appended one : acknowledged) {
					assertThat(contentById.get(one.id())).as(description + ", entry " + one.id()).isEqualTo(one.content());
				}
				Map<String, Integer> positionById = new HashMap<>();
				for (int i = 0; i < fileIds.size(); i++) {
					positionById.put(fileIds.get(i), i);
				}
				Map<Integer, List<Integer>> positionsByThread = new HashMap<>();
				for (Appended one : acknowledged) {
					positionsByThread.computeIfAbsent(one.thread(), key -> new ArrayList<>()).add(positionById.get(one.id()));
				}
				assertThat(positionsByThread.values()).as(description + ": each thread's entries in its own order")
					.allSatisfy(positions -> assertThat(positions).isSorted());
				TreeSnapshot inMemoryTree = session.getValue();
				assertThat(inMemoryTree.ids()).as(description).isEqualTo(fileIds);
				// ExpectedLeaf.ANY: each entry is the child of the leaf it was written after, the previous line.
				List<@Nullable String> chain = new ArrayList<>();
				chain.add(null);
				chain.addAll(fileIds.subList(0, Math.max(0, fileIds.size() - 1)));
				assertThat(inMemoryTree.parentIds()).as(description + ": one chain in file order").isEqualTo(chain);
				assertThat(inMemoryTree.leafId()).as(description)
					.isEqualTo(fileIds.isEmpty() ? null : fileIds.get(fileIds.size() - 1));
				assertThat(reopened.read(sessionId, TreeSnapshot::of)).as(description + ": reloaded")
					.isEqualTo(inMemoryTree);
			}
		}
	}

	/** Every line of the file, each parsed as a JSON object: a torn or interleaved line would not parse. */
	private static List<ObjectNode> wholeLines(Path file, String description) throws IOException {
		byte[] bytes = Files.readAllBytes(file);
		assertThat(bytes).as(description).endsWith((byte) '\n');
		String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
		return Arrays.stream(lines).map(line -> Json.parseObject(line.getBytes(StandardCharsets.UTF_8))).toList();
	}

	/** Runs {@value #THREADS} threads of {@value #APPENDS_PER_THREAD} appends each, released together. */
	private static List<Appended> appendConcurrently(SessionStore store, SessionChooser chooser) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<Appended>>> results = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int thread = t;
				results.add(executor.submit(() -> {
					start.await();
					List<Appended> appended = new ArrayList<>(APPENDS_PER_THREAD);
					for (int i = 0; i < APPENDS_PER_THREAD; i++) {
						String sessionId = chooser.sessionFor(thread);
						String content = "thread " + thread + " append " + i;
						List<EntryLine> lines = store.append(sessionId, ExpectedLeaf.ANY, List.of(draft(content)));
						assertThat(lines).hasSize(1);
						appended.add(new Appended(sessionId, thread, lines.get(0).id(), content));
					}
					return appended;
				}));
			}
			start.countDown();
			List<Appended> all = new ArrayList<>();
			for (Future<List<Appended>> result : results) {
				all.addAll(result.get(60, TimeUnit.SECONDS));
			}
			return all;
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static ObjectNode draft(String content) {
		ObjectNode message = Json.newObject();
		message.put("role", "user");
		message.put("content", content);
		ObjectNode draft = Json.newObject();
		draft.put("type", "message");
		draft.set("message", message);
		return draft;
	}

	private FileSessionStore newStore(FsyncPolicy fsync, long cacheBudgetBytes) {
		return new FileSessionStore(this.dir, fsync, cacheBudgetBytes, Clock.systemUTC());
	}

	private static List<String> createSessions(SessionStore store) {
		List<String> sessionIds = new ArrayList<>();
		for (int i = 0; i < SESSIONS; i++) {
			sessionIds.add(store.create("/concurrent/" + i, null, null).id());
		}
		return sessionIds;
	}

	private static Map<String, TreeSnapshot> snapshots(SessionStore store, List<String> sessionIds) {
		Map<String, TreeSnapshot> snapshots = new LinkedHashMap<>();
		sessionIds.forEach(id -> snapshots.put(id, store.read(id, TreeSnapshot::of)));
		return snapshots;
	}

	private static Map<String, Path> paths(SessionStore store, List<String> sessionIds) {
		Map<String, Path> paths = new HashMap<>();
		sessionIds.forEach(id -> paths.put(id, store.get(id).file()));
		return paths;
	}

	@FunctionalInterface
	private interface SessionChooser {

		String sessionFor(int thread);

	}

	/**
	 * One acknowledged append.
	 *
	 * @param sessionId the session appended to
	 * @param thread the appending thread
	 * @param id the entry id the store returned
	 * @param content the message content written
	 */
	private record Appended(String sessionId, int thread, String id, String content) {
	}

	/**
	 * What a tree holds, comparable across store instances.
	 *
	 * @param ids entry ids in file order
	 * @param parentIds their parent ids, in the same order
	 * @param leafId the leaf
	 */
	private record TreeSnapshot(List<String> ids, List<@Nullable String> parentIds, @Nullable String leafId) {

		static TreeSnapshot of(SessionTree tree) {
			List<EntryLine> entries = tree.getEntries();
			return new TreeSnapshot(entries.stream().map(EntryLine::id).toList(),
					entries.stream().map(EntryLine::parentId).collect(Collectors.toList()), tree.leafId());
		}

	}

}

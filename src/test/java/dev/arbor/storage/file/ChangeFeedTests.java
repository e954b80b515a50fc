package dev.arbor.storage.file;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.ChangeFeed;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LeafMovedException;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's change listeners ({@link SessionStore#addChangeListener}) and the {@link ChangeFeed} behind them: each
 * durable change once, in the order of the writes, whatever order the fsyncs finish in.
 */
class ChangeFeedTests {

	@TempDir
	Path dir;

	@Test
	void createShouldTellSessionCreated() {
		try (FileSessionStore store = store()) {
			Recording listener = listen(store);
			SessionInfo info = store.create("/w", "Title", null);
			assertThat(listener.changes()).containsExactly(new SessionChange.SessionCreated(info, Origin.ARBOR));
		}
	}

	@Test
	void importSessionShouldTellSessionCreatedWithTheImportedEntries() {
		try (FileSessionStore store = store()) {
			Recording listener = listen(store);
			String content = SessionFiles.HEADER + "\n" + SessionFiles.entry("e1", null, "one") + "\n"
					+ SessionFiles.entry("e2", "e1", "two") + "\n";
			SessionInfo info = store.importSession(content.getBytes(StandardCharsets.UTF_8), false);
			assertThat(listener.changes()).containsExactly(new SessionChange.SessionCreated(info, Origin.ARBOR));
			SessionChange.SessionCreated created = (SessionChange.SessionCreated) listener.changes().get(0);
			assertThat(created.sessionId()).isEqualTo("s-1");
			assertThat(created.session().entryCount()).isEqualTo(2);
			assertThat(created.session().leafId()).isEqualTo("e2");
		}
	}

	@Test
	void forkAndCreateBranchedSessionShouldTellSessionCreatedOnlyForTheNewSessions() {
		try (FileSessionStore store = store()) {
			String source = store.create("/w", null, null).id();
			List<EntryLine> entries = store.append(source, ExpectedLeaf.ANY,
					List.of(SessionFiles.userMessage("one"), SessionFiles.userMessage("two")));
			Recording listener = listen(store);
			SessionInfo forked = store.fork(source);
			SessionInfo branched = store.createBranchedSession(source, entries.get(0).id());
			assertThat(listener.changes()).containsExactly(new SessionChange.SessionCreated(forked, Origin.ARBOR),
					new SessionChange.SessionCreated(branched, Origin.ARBOR));
			assertThat(forked.entryCount()).isEqualTo(2);
			assertThat(branched.entryCount()).isEqualTo(1);
			assertThat(listener.changes()).extracting(SessionChange::sessionId).doesNotContain(source);
		}
	}

	@Test
	void appendShouldTellEntriesAppendedInOrderWithTheOldLeaf() {
		try (FileSessionStore store = store()) {
			String sessionId = store.create("/w", null, null).id();
			Recording listener = listen(store);
			List<EntryLine> first = store.append(sessionId, ExpectedLeaf.ANY,
					List.of(SessionFiles.userMessage("one"), SessionFiles.userMessage("two")));
			List<EntryLine> second = store.append(sessionId, ExpectedLeaf.of(first.get(1).id()),
					List.of(SessionFiles.userMessage("three")));
			assertThat(listener.changes()).containsExactly(
					new SessionChange.EntriesAppended(sessionId, first, null, Origin.ARBOR),
					new SessionChange.EntriesAppended(sessionId, second, first.get(1).id(), Origin.ARBOR));
			SessionChange.EntriesAppended appended = (SessionChange.EntriesAppended) listener.changes().get(0);
			assertThat(appended.entries()).extracting(EntryLine::id)
				.containsExactly(first.get(0).id(), first.get(1).id());
			assertThat(appended.newLeafId()).isEqualTo(first.get(1).id());
		}
	}

	@Test
	void appendWhenItFailsShouldTellNothing() {
		try (FileSessionStore store = store()) {
			String sessionId = store.create("/w", null, null).id();
			EntryLine one = store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("one"))).get(0);
			Recording listener = listen(store);
			try {
				store.append(sessionId, ExpectedLeaf.of("someone-else"), List.of(SessionFiles.userMessage("two")));
			}
			catch (LeafMovedException ex) {
				// expected: the leaf is one
			}
			assertThat(listener.changes()).isEmpty();
			assertThat(store.get(sessionId).leafId()).isEqualTo(one.id());
		}
	}

	@Test
	void appendBranchSummaryShouldTellEntriesAppendedWithTheLeafBeforeTheMove() {
		try (FileSessionStore store = store()) {
			String sessionId = store.create("/w", null, null).id();
			List<EntryLine> entries = store.append(sessionId, ExpectedLeaf.ANY,
					List.of(SessionFiles.userMessage("one"), SessionFiles.userMessage("two")));
			Recording listener = listen(store);
			EntryLine summary = store.appendBranchSummary(sessionId, ExpectedLeaf.ANY, entries.get(0).id(), "gone",
					null, null);
			assertThat(summary.parentId()).isEqualTo(entries.get(0).id());
			assertThat(listener.changes()).containsExactly(
					new SessionChange.EntriesAppended(sessionId, List.of(summary), entries.get(1).id(), Origin.ARBOR));
		}
	}

	@Test
	void moveLeafShouldTellLeafMovedAndNothingWhenTheLeafStaysWhereItIs() {
		try (FileSessionStore store = store()) {
			String sessionId = store.create("/w", null, null).id();
			List<EntryLine> entries = store.append(sessionId, ExpectedLeaf.ANY,
					List.of(SessionFiles.userMessage("one"), SessionFiles.userMessage("two")));
			String first = entries.get(0).id();
			String second = entries.get(1).id();
			Recording listener = listen(store);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, second); // already there
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, first);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, first); // already there
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, null);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, null); // already there
			assertThat(listener.changes()).containsExactly(new SessionChange.LeafMoved(sessionId, second, first),
					new SessionChange.LeafMoved(sessionId, first, null));
		}
	}

	@Test
	void deleteShouldTellSessionDeleted() {
		try (FileSessionStore store = store()) {
			String sessionId = store.create("/w", null, null).id();
			store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("one")));
			Recording listener = listen(store);
			store.delete(sessionId, ExpectedLeaf.ANY);
			assertThat(listener.changes()).containsExactly(new SessionChange.SessionDeleted(sessionId, Origin.ARBOR));
		}
	}

	@Test
	void appendWhenEightThreadsShareOneSessionShouldTellEveryEntryOnceInFileOrder() throws Exception {
		int threads = 8;
		int appendsPerThread = 200;
		try (FileSessionStore store = store()) {
			String sessionId = store.create("/concurrent", null, null).id();
			Recording listener = listen(store);
			List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
			ExecutorService executor = Executors.newFixedThreadPool(threads);
			try {
				CountDownLatch start = new CountDownLatch(1);
				List<Future<?>> results = new ArrayList<>();
				for (int t = 0; t < threads; t++) {
					int thread = t;
					results.add(executor.submit(() -> {
						start.await();
						for (int i = 0; i < appendsPerThread; i++) {
							List<EntryLine> lines = store.append(sessionId, ExpectedLeaf.ANY,
									List.of(SessionFiles.userMessage("thread " + thread + " append " + i)));
							acknowledged.add(lines.get(0).id());
						}
						return null;
					}));
				}
				start.countDown();
				for (Future<?> result : results) {
					result.get(60, TimeUnit.SECONDS);
				}
			}
			finally {
				executor.shutdownNow();
			}
			List<String> fileOrder = store.read(sessionId, (tree) -> SessionFiles.ids(tree.getEntries()));
			List<SessionChange> changes = listener.changes();
			List<String> told = new ArrayList<>();
			@Nullable String previousLeaf = null;
			for (SessionChange change : changes) {
				assertThat(change).isInstanceOf(SessionChange.EntriesAppended.class);
				SessionChange.EntriesAppended appended = (SessionChange.EntriesAppended) change;
				assertThat(appended.sessionId()).isEqualTo(sessionId);
				assertThat(appended.oldLeafId()).as("change %d follows the one before", told.size())
					.isEqualTo(previousLeaf);
				told.addAll(SessionFiles.ids(appended.entries()));
				previousLeaf = appended.newLeafId();
			}
			assertThat(told).hasSize(threads * appendsPerThread).doesNotHaveDuplicates();
			assertThat(told).containsExactlyInAnyOrderElementsOf(acknowledged);
			assertThat(told).isEqualTo(fileOrder);
			assertThat(previousLeaf).isEqualTo(store.get(sessionId).leafId());
		}
	}

	@Test
	void listenerThatThrowsShouldNeitherFailTheWriteNorKeepTheNextListenerFromHearing() {
		try (FileSessionStore store = store()) {
			List<SessionChange> thrownOn = Collections.synchronizedList(new ArrayList<>());
			store.addChangeListener((change) -> {
				thrownOn.add(change);
				throw new IllegalStateException("listener failed");
			});
			Recording second = listen(store);
			SessionInfo info = store.create("/w", null, null);
			List<EntryLine> entries = store.append(info.id(), ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a")));
			List<EntryLine> more = store.append(info.id(), ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("b")));
			store.moveLeaf(info.id(), ExpectedLeaf.ANY, entries.get(0).id());
			store.delete(info.id(), ExpectedLeaf.ANY);
			List<SessionChange> expected = List.of(new SessionChange.SessionCreated(info, Origin.ARBOR),
					new SessionChange.EntriesAppended(info.id(), entries, null, Origin.ARBOR),
					new SessionChange.EntriesAppended(info.id(), more, entries.get(0).id(), Origin.ARBOR),
					new SessionChange.LeafMoved(info.id(), more.get(0).id(), entries.get(0).id()),
					new SessionChange.SessionDeleted(info.id(), Origin.ARBOR));
			assertThat(second.changes()).containsExactlyElementsOf(expected);
			assertThat(thrownOn).containsExactlyElementsOf(expected);
		}
	}

	@Test
	void appendShouldBeReadableFromTheStoreWhenTheListenerHearsOfIt() {
		try (FileSessionStore store = store()) {
			String sessionId = store.create("/w", null, null).id();
			List<List<String>> seenByListener = Collections.synchronizedList(new ArrayList<>());
			store.addChangeListener((change) -> {
				if (change instanceof SessionChange.EntriesAppended) {
					// A listener must not write, but may read: the entries are in the tree by now.
					seenByListener.add(store.read(sessionId, (tree) -> SessionFiles.ids(tree.getEntries())));
				}
			});
			List<EntryLine> entries = store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("a")));
			assertThat(seenByListener).containsExactly(SessionFiles.ids(entries));
		}
	}

	// ChangeFeed on its own

	@Test
	void feedShouldReleaseChangesSettledOutOfOrderInTheOrderTheyWereEnqueued() {
		Recording listener = new Recording();
		ChangeFeed feed = new ChangeFeed(listener);
		SessionChange a = moved("a");
		SessionChange b = moved("b");
		SessionChange c = moved("c");
		ChangeFeed.Pending first = feed.enqueue(a);
		ChangeFeed.Pending second = feed.enqueue(b);
		ChangeFeed.Pending third = feed.enqueue(c);
		feed.durable(third);
		feed.durable(second);
		assertThat(listener.changes()).isEmpty();
		feed.durable(first);
		assertThat(listener.changes()).containsExactly(a, b, c);
	}

	@Test
	void feedShouldReleaseEachChangeAsSoonAsEveryEarlierOneIsSettled() {
		Recording listener = new Recording();
		ChangeFeed feed = new ChangeFeed(listener);
		SessionChange a = moved("a");
		SessionChange b = moved("b");
		SessionChange c = moved("c");
		ChangeFeed.Pending first = feed.enqueue(a);
		ChangeFeed.Pending second = feed.enqueue(b);
		ChangeFeed.Pending third = feed.enqueue(c);
		feed.durable(first);
		assertThat(listener.changes()).containsExactly(a);
		feed.durable(third);
		assertThat(listener.changes()).containsExactly(a);
		feed.durable(second);
		assertThat(listener.changes()).containsExactly(a, b, c);
	}

	@Test
	void feedShouldNeverReleaseADroppedChangeNorLetItBlockLaterOnes() {
		Recording listener = new Recording();
		ChangeFeed feed = new ChangeFeed(listener);
		SessionChange a = moved("a");
		SessionChange b = moved("b");
		SessionChange c = moved("c");
		SessionChange d = moved("d");
		ChangeFeed.Pending first = feed.enqueue(a);
		ChangeFeed.Pending second = feed.enqueue(b);
		ChangeFeed.Pending third = feed.enqueue(c);
		feed.durable(second);
		feed.dropped(first);
		assertThat(listener.changes()).containsExactly(b);
		feed.dropped(third);
		feed.publish(d);
		assertThat(listener.changes()).containsExactly(b, d);
	}

	@Test
	void feedPublishShouldWaitForEarlierChangesStillPending() {
		Recording listener = new Recording();
		ChangeFeed feed = new ChangeFeed(listener);
		SessionChange append = moved("append");
		SessionChange move = moved("move");
		ChangeFeed.Pending pending = feed.enqueue(append);
		feed.publish(move);
		assertThat(listener.changes()).isEmpty();
		feed.durable(pending);
		assertThat(listener.changes()).containsExactly(append, move);
	}

	@Test
	void feedShouldReleaseInEnqueueOrderWhenManyThreadsSettleConcurrently() throws Exception {
		int changes = 2_000;
		Recording listener = new Recording();
		ChangeFeed feed = new ChangeFeed(listener);
		List<SessionChange> enqueued = new ArrayList<>();
		List<ChangeFeed.Pending> pending = new ArrayList<>();
		for (int i = 0; i < changes; i++) {
			SessionChange change = moved("e" + i);
			enqueued.add(change);
			pending.add(feed.enqueue(change));
		}
		List<SessionChange> expected = new ArrayList<>();
		for (int i = 0; i < changes; i++) {
			if (i % 7 != 3) {
				expected.add(enqueued.get(i));
			}
		}
		ExecutorService executor = Executors.newFixedThreadPool(8);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> results = new ArrayList<>();
			for (int t = 0; t < 8; t++) {
				int thread = t;
				results.add(executor.submit(() -> {
					start.await();
					// each thread settles every 8th change, the last ones first
					for (int i = changes - 1 - thread; i >= 0; i -= 8) {
						if (i % 7 == 3) {
							feed.dropped(pending.get(i));
						}
						else {
							feed.durable(pending.get(i));
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> result : results) {
				result.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(listener.changes()).containsExactlyElementsOf(expected);
	}

	private static SessionChange moved(String id) {
		return new SessionChange.LeafMoved("s-1", null, id);
	}

	private FileSessionStore store() {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
	}

	private static Recording listen(SessionStore store) {
		Recording listener = new Recording();
		store.addChangeListener(listener);
		return listener;
	}

	/** Keeps every change it is told of. */
	private static final class Recording implements SessionChangeListener {

		private final List<SessionChange> changes = new ArrayList<>();

		@Override
		public synchronized void onChange(SessionChange change) {
			this.changes.add(change);
		}

		synchronized List<SessionChange> changes() {
			return List.copyOf(this.changes);
		}

	}

}

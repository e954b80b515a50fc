package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.SearchPage;
import dev.arbor.storage.SearchQuery;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionSearch;
import dev.arbor.storage.StorageException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Search for the file store (docs/API.md#search): keeps a {@link SearchIndex} under the storage folder's
 * {@code .arbor/search} in step with the sessions. One thread does all of the index's writing, in the order the store
 * reports its changes: the build from the files at start (every session read again, as the files may have changed
 * while Arbor was down), each change the store reports, and a rebuild whenever a search or a write finds the index
 * damaged. Answers are partial until a build has finished.
 */
public final class FileSearch implements SessionSearch, SessionChangeListener, Closeable {

	/** Where the index lives, under the storage folder. */
	public static final String FOLDER = StorageFiles.ARBOR_FOLDER + "/search";

	private static final Logger logger = LoggerFactory.getLogger(FileSearch.class);

	private final FileSessionStore store;

	private final SearchIndex index;

	private final ExecutorService writer = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "arbor-search-index");
		thread.setDaemon(true);
		return thread;
	});

	/** Sessions the running build has still to read. */
	private final AtomicInteger pending = new AtomicInteger();

	private final AtomicBoolean rebuildQueued = new AtomicBoolean();

	public FileSearch(FileSessionStore store) throws IOException {
		this.store = store;
		this.index = SearchIndex.open(store.root().resolve(FOLDER));
		this.index.partial(true);
		store.addChangeListener(this);
		rebuild(false);
	}

	/** Sessions still to be indexed by the build under way: 0 once search is complete. */
	public int pendingSessions() {
		return this.pending.get();
	}

	@Override
	public SearchPage search(SearchQuery query) {
		SearchPage page = this.index.search(query);
		if (this.index.isBroken()) {
			rebuild(true);
		}
		return page;
	}

	@Override
	public void onChange(SessionChange change) {
		if (change instanceof SessionChange.EntriesAppended appended) {
			write(() -> this.index.add(appended.sessionId(), cwd(appended.sessionId()), appended.entries()));
		}
		else if (change instanceof SessionChange.SessionCreated created) {
			write(() -> reindex(created.sessionId()));
		}
		else if (change instanceof SessionChange.SessionReloaded reloaded) {
			write(() -> reindex(reloaded.sessionId()));
		}
		else if (change instanceof SessionChange.SessionDeleted deleted) {
			write(() -> this.index.delete(deleted.sessionId()));
		}
		// a moved file or a moved leaf changes nothing that is searched
	}

	/** Empties the index when damaged, and reads every session into it again, in the background. */
	private void rebuild(boolean reset) {
		if (!this.rebuildQueued.compareAndSet(false, true)) {
			return;
		}
		this.writer.execute(() -> {
			try {
				if (reset) {
					logger.warn("Search index is damaged; rebuilding it from the session files");
					this.index.reset();
				}
				this.rebuildQueued.set(false); // damage found from here on is new: it has the index rebuilt again
				this.index.partial(true);
				build();
				this.index.partial(false);
			}
			catch (IOException | RuntimeException ex) {
				this.rebuildQueued.set(false);
				logger.warn("Search index could not be built; searches stay partial", ex);
			}
		});
	}

	private void build() throws IOException {
		List<SessionInfo> sessions = this.store.list();
		this.pending.set(sessions.size());
		logger.info("Search index: indexing {} sessions", sessions.size());
		int done = 0;
		long start = System.nanoTime();
		for (SessionInfo session : sessions) {
			reindex(session.id());
			this.pending.decrementAndGet();
			done++;
			if (done % 500 == 0) {
				logger.info("Search index: {} of {} sessions indexed", done, sessions.size());
				this.index.refresh();
			}
		}
		this.index.commit();
		logger.info("Search index: {} sessions indexed in {} ms", sessions.size(),
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
	}

	private void reindex(String sessionId) throws IOException {
		List<EntryLine> entries;
		String cwd;
		try {
			SessionInfo info = this.store.get(sessionId);
			cwd = info.header().cwd();
			entries = this.store.read(sessionId, (tree) -> tree.getEntries());
		}
		catch (SessionNotFoundException ex) {
			this.index.delete(sessionId);
			return;
		}
		catch (StorageException ex) {
			logger.debug("Session {} could not be read for search", sessionId, ex);
			return;
		}
		this.index.replace(sessionId, cwd, entries);
	}

	private @Nullable String cwd(String sessionId) {
		try {
			return this.store.get(sessionId).header().cwd();
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** Runs one write on the index's thread and makes it searchable; a write that fails has the index rebuilt. */
	private void write(IndexWrite write) {
		this.writer.execute(() -> {
			try {
				write.run();
				this.index.refresh();
			}
			catch (IOException | RuntimeException ex) {
				logger.warn("Search index failed a write ({}); rebuilding it", ex.toString());
				rebuild(true);
			}
		});
	}

	@Override
	public void close() throws IOException {
		this.writer.shutdown();
		try {
			this.writer.awaitTermination(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try {
			this.index.commit();
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Search index could not be committed on close; it is rebuilt at next start", ex);
		}
		this.index.close();
	}

	@FunctionalInterface
	private interface IndexWrite {

		void run() throws IOException;

	}

}

package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
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
 * reports its changes: the build from the files at start (each session whose file is not as when it was last indexed
 * read again, as files change while Arbor is down), each change the store reports, and a rebuild whenever a search or a write finds the index
 * damaged. Answers are partial until a build has finished.
 */
public final class FileSearch implements SessionSearch, SessionChangeListener, Closeable {

	/** Where the index lives, under the storage folder. */
	public static final String FOLDER = StorageFiles.ARBOR_FOLDER + "/search";

	private static final Logger logger = LoggerFactory.getLogger(FileSearch.class);

	private final FileSessionStore store;

	private final SearchIndex index;

	/**
	 * How long a rebuild after damage waits: an index that fails because the whole storage folder is being deleted
	 * finds it gone by then, and is not made again inside a folder on its way out.
	 */
	private static final Duration REBUILD_DELAY = Duration.ofSeconds(1);

	private final ScheduledThreadPoolExecutor writer;

	/** Set once the storage folder is found gone: nothing is written from then on. */
	private volatile boolean stopped;

	/** Sessions the running build has still to read. */
	private final AtomicInteger pending = new AtomicInteger();

	private final AtomicBoolean rebuildQueued = new AtomicBoolean();

	private volatile int lastBuildRead = -1;

	public FileSearch(FileSessionStore store) throws IOException {
		this.store = store;
		this.writer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "arbor-search-index");
			thread.setDaemon(true);
			return thread;
		});
		this.writer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
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
			write(() -> {
				this.index.add(appended.sessionId(), cwd(appended.sessionId()), appended.entries());
				this.index.unstamp(appended.sessionId()); // indexed now beyond what its stamp says
			});
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

	/**
	 * Empties the index when damaged, and reads every session into it again, in the background; after damage, once
	 * {@link #REBUILD_DELAY} has passed.
	 */
	private void rebuild(boolean reset) {
		if (!this.rebuildQueued.compareAndSet(false, true)) {
			return;
		}
		Runnable rebuild = () -> {
			if (!storageFolderPresent()) {
				return;
			}
			try {
				if (reset) {
					logger.warn("Search index is damaged; rebuilding it from the session files");
					this.index.reset();
				}
				this.rebuildQueued.set(false); // damage found from here on is new: it has the index rebuilt again
				this.index.partial(true);
				if (build()) {
					this.index.partial(false);
				}
			}
			catch (IOException | RuntimeException | InternalError | AssertionError ex) {
				this.rebuildQueued.set(false);
				logger.warn("Search index could not be built; searches stay partial", ex);
			}
		};
		if (reset) {
			this.writer.schedule(rebuild, REBUILD_DELAY.toMillis(), TimeUnit.MILLISECONDS);
		}
		else {
			this.writer.execute(rebuild);
		}
	}

	/**
	 * Whether the storage folder is still there to write the index into. A folder deleted whole (the storage given
	 * up, a test's temporary folder) stops the index for good, rather than have its writes make the folder again.
	 */
	private boolean storageFolderPresent() {
		if (this.stopped) {
			return false;
		}
		if (Files.isDirectory(this.store.root())) {
			return true;
		}
		this.stopped = true;
		this.rebuildQueued.set(false);
		logger.warn("Storage folder {} is gone; the search index is no longer written", this.store.root());
		return false;
	}

	/**
	 * Brings the index in step with the files: the sessions whose file is not as when it was last indexed whole (new,
	 * changed while Arbor was down, or appended to since) are read again, those gone are removed, the others kept.
	 *
	 * @return {@code false} when the storage folder went away meanwhile
	 */
	private boolean build() throws IOException {
		List<SessionInfo> sessions = this.store.list();
		Map<String, @Nullable String> stamps = this.index.stamps();
		Set<String> present = new HashSet<>();
		List<String> toRead = new ArrayList<>();
		for (SessionInfo session : sessions) {
			present.add(session.id());
			String stamp = stamps.get(session.id());
			if (stamp == null || !stamp.equals(stamp(session.file()))) {
				toRead.add(session.id());
			}
		}
		for (String indexed : stamps.keySet()) {
			if (!present.contains(indexed)) {
				this.index.delete(indexed);
			}
		}
		this.pending.set(toRead.size());
		logger.info("Search index: indexing {} of {} sessions (the others are indexed as their files are)", toRead.size(),
				sessions.size());
		int done = 0;
		long start = System.nanoTime();
		for (String sessionId : toRead) {
			if (!storageFolderPresent()) {
				return false;
			}
			reindex(sessionId);
			this.pending.decrementAndGet();
			done++;
			if (done % 500 == 0) {
				logger.info("Search index: {} of {} sessions indexed", done, toRead.size());
				this.index.refresh();
			}
		}
		this.index.commit();
		this.lastBuildRead = toRead.size();
		logger.info("Search index: {} sessions indexed in {} ms", toRead.size(),
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
		return true;
	}

	/** How many sessions the last finished build read again; the others it found indexed already. */
	int lastBuildRead() {
		return this.lastBuildRead;
	}

	private void reindex(String sessionId) throws IOException {
		List<EntryLine> entries;
		String cwd;
		String stamp;
		try {
			SessionInfo info = this.store.get(sessionId);
			cwd = info.header().cwd();
			// taken before the read, which takes in at least all the file held then
			stamp = stamp(info.file());
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
		if (stamp != null) {
			this.index.stamp(sessionId, stamp);
		}
	}

	/**
	 * What a session's file is: its length and when it was last changed. The agents only ever append, or rewrite a
	 * file whole, so a file with the same stamp holds what it held when it was indexed.
	 */
	private static @Nullable String stamp(@Nullable Path file) {
		if (file == null) {
			return null;
		}
		try {
			return Files.size(file) + "@" + Files.getLastModifiedTime(file).toInstant();
		}
		catch (IOException ex) {
			return null;
		}
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
			if (!storageFolderPresent()) {
				return;
			}
			try {
				write.run();
				this.index.refresh();
			}
			catch (IOException | RuntimeException | InternalError | AssertionError ex) {
				// an InternalError or AssertionError is how reading a damaged index file can fail (SearchIndex)
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
			if (!this.stopped) {
				this.index.commit();
			}
		}
		catch (IOException | RuntimeException | InternalError | AssertionError ex) {
			logger.debug("Search index could not be committed on close; it is rebuilt at next start", ex);
		}
		try {
			this.index.close();
		}
		catch (IOException | RuntimeException | InternalError | AssertionError ex) {
			// a cache: what could not be closed cleanly is found damaged or stale, and rebuilt, at next start
			logger.debug("Search index could not be closed cleanly", ex);
		}
	}

	@FunctionalInterface
	private interface IndexWrite {

		void run() throws IOException;

	}

}

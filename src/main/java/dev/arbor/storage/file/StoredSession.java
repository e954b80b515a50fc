package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ChangeFeed;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionWatch;
import dev.arbor.storage.StorageException;
import org.jspecify.annotations.Nullable;

/**
 * One session file and, while it is loaded, its tree. Readers share a read lock; writers take the write lock to
 * catch up with the file, check, plan, write and add their entries, then wait for the fsync outside it so that
 * concurrent appends share fsyncs (see {@link SessionFile}).
 * <p>
 * The file is shared with whoever else writes it, such as the coding agent that owns it: before anything is
 * checked or planned against the tree, and before a read, {@link SessionSync} brings the tree up to date with the
 * file. Appends go through {@link SessionAppend}: only at the true end of the file, never after someone's unfinished
 * line.
 * <p>
 * Loaded on first use and unloaded by the registry when memory is needed, unless watched; everything acknowledged
 * is on disk, so unloading never loses data.
 */
final class StoredSession {

	private final String sessionId;

	/** Where the file is; changes only when another process moved it (under the write lock, by {@link SessionSync}). */
	private volatile Path path;

	private final FileStoreContext context;

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	/** Guarded by the lock; volatile for the checks that skip it (eviction, the store's watch). */
	private volatile @Nullable LoadedTree loaded;

	private @Nullable SessionFile file;

	private volatile boolean deleted;

	private volatile long lastUsed;

	private volatile @Nullable SessionSummary summary;

	private final AtomicInteger watchers = new AtomicInteger();

	/** Changes released to the listeners so far: a summary taken at the same count is still the session's. */
	private final AtomicLong released = new AtomicLong();

	private final ChangeFeed changes;

	private final SessionSync sync;

	StoredSession(String sessionId, Path path, FileStoreContext context) {
		this.sessionId = sessionId;
		this.path = path;
		this.context = context;
		SessionChangeListener listener = context.listener();
		this.changes = new ChangeFeed(change -> {
			this.released.incrementAndGet(); // before the store hears of it: a listing it prompts takes a new summary
			listener.onChange(change);
		});
		this.sync = new SessionSync(this, context, this.changes);
	}

	String sessionId() {
		return this.sessionId;
	}

	Path path() {
		return this.path;
	}

	long lastUsed() {
		return this.lastUsed;
	}

	/** Bytes held in memory: about the file's size while loaded, else none. */
	long loadedBytes() {
		LoadedTree current = this.loaded;
		return (current != null) ? current.bytes() : 0;
	}

	boolean isDeleted() {
		return this.deleted;
	}

	<T> T read(Function<SessionTree, T> reader) {
		return readLoaded(loaded -> {
			long kept = loaded.tree.keptViewBytes();
			T result = reader.apply(loaded.tree);
			if (loaded.tree.keptViewBytes() > kept) {
				this.context.afterGrowth(this); // a first search can keep about as much again as the file
			}
			return result;
		});
	}

	/**
	 * What a listing shows. While the session is unloaded and its file kept the length it had, this is the
	 * summary taken when it was last loaded: listing many sessions must not load every one of them.
	 */
	SessionInfo info() {
		ReentrantReadWriteLock.ReadLock readLock = this.lock.readLock();
		readLock.lock();
		try {
			SessionSummary cached = this.summary;
			if (this.loaded == null && !this.deleted && cached != null && cached.isCurrent(this.path)) {
				return cached.info();
			}
		}
		finally {
			readLock.unlock();
		}
		return readLoaded(this::summarize);
	}

	/**
	 * What a listing shows, when the folder watch reports every change to the file
	 * (docs/STORAGE.md#how-a-listing-stays-current): the summary last taken, without a look at the file, while no
	 * change of the session was released since; else {@link #info()}.
	 */
	SessionInfo listed() {
		SessionSummary cached = this.summary;
		if (cached != null && !this.deleted && cached.releasedChanges() == this.released.get()) {
			return cached.info();
		}
		return info();
	}

	/**
	 * Keeps the session loaded, and taking in what others append, until the returned handle is closed.
	 *
	 * @throws SessionNotFoundException when it is gone
	 */
	SessionWatch watch() {
		this.watchers.incrementAndGet();
		try {
			readLoaded(loaded -> null); // loaded now, so that what others append from here on is taken in
		}
		catch (RuntimeException ex) {
			this.watchers.decrementAndGet();
			throw ex;
		}
		AtomicInteger once = new AtomicInteger();
		return () -> {
			if (once.getAndIncrement() == 0) {
				this.watchers.decrementAndGet();
			}
		};
	}

	/** Takes in what others did to the file, if it looks changed; for the store's watch and poll. */
	void refreshIfChanged() {
		this.sync.refreshIfChanged();
	}

	/** Whether the file is gone, and the session with it (announced once). For the store's watch. */
	boolean checkRemoved() {
		return this.sync.checkRemoved();
	}

	/** The tree, up to date with the file, with this process holding the file's OS lock (see {@link SessionSync}). */
	LoadedTree writable() throws IOException {
		return this.sync.writable();
	}

	/** Announces entries that another process appended, once taken in. */
	void publishTakenIn(List<EntryLine> entries, @Nullable String oldLeafId) {
		this.sync.publishTakenIn(entries, oldLeafId);
	}

	/**
	 * Whether the file differs from what was last read of it while the session is out of memory: another process
	 * wrote it meanwhile. A session never read has nothing to differ from.
	 */
	boolean changedSinceSeen() {
		SessionSummary cached = this.summary;
		return this.loaded == null && cached != null && !cached.isCurrent(this.path);
	}

	/**
	 * Takes the summary of the loaded tree (under the lock, so the tree holds still). The same summary as before is
	 * kept, with the same {@link SessionInfo}: a listing made of the same objects is the same listing.
	 */
	SessionInfo summarize(LoadedTree loaded) {
		SessionSummary taken = SessionSummary.of(this.sessionId, this.path, loaded.tree, loaded.reportedMalformedLines(),
				loaded.consumed, loaded.seen.modified(), this.released.get());
		SessionSummary before = this.summary;
		if (before != null && before.equals(taken)) {
			return before.info();
		}
		this.summary = taken;
		return taken.info();
	}

	/** Reads the loaded tree; loads it, or takes in what others wrote, first (under the write lock) if needed. */
	private <T> T readLoaded(Function<LoadedTree, T> reader) {
		ReentrantReadWriteLock.ReadLock readLock = this.lock.readLock();
		readLock.lock();
		try {
			LoadedTree current = this.loaded;
			if (current != null && !this.deleted && this.sync.isCurrent(current, FileStamp.read(this.path))) {
				this.lastUsed = System.nanoTime();
				return reader.apply(current);
			}
		}
		catch (IOException ex) {
			// gone or unreadable: taking it in under the write lock says which
		}
		finally {
			readLock.unlock();
		}
		this.lock.writeLock().lock();
		try {
			this.sync.upToDate(this.sync.ensureLoaded());
			readLock.lock(); // downgrade: no eviction between loading and reading
		}
		catch (IOException ex) {
			throw new StorageException("Could not read session " + this.sessionId, ex);
		}
		finally {
			this.lock.writeLock().unlock();
		}
		try {
			return reader.apply(Objects.requireNonNull(this.loaded));
		}
		finally {
			readLock.unlock();
		}
	}

	/** Appends entries planned against the tree, all or nothing, durable when this returns ({@link SessionAppend}). */
	List<EntryLine> append(ExpectedLeaf expected, Function<SessionTree, List<EntryLine>> planner) {
		return SessionAppend.run(this, expected, planner);
	}

	/** {@code branch}/{@code resetLeaf}, persisted in the leaf sidecar before it takes effect. */
	@Nullable String moveLeaf(ExpectedLeaf expected, @Nullable String entryId) {
		this.lock.writeLock().lock();
		try {
			LoadedTree current = writable();
			expected.check(this.sessionId, current.tree.leafId());
			if (entryId != null) {
				current.tree.requireEntry(entryId);
			}
			String oldLeafId = current.tree.leafId();
			if (Objects.equals(entryId, oldLeafId)) {
				return entryId;
			}
			SessionFile target = openFile();
			target.syncTo(target.length()); // the sidecar must never name bytes that are not on disk
			LeafSidecar.write(this.path, entryId, current.consumed);
			current.tree.moveLeaf(entryId);
			this.changes.publish(new SessionChange.LeafMoved(this.sessionId, oldLeafId, entryId));
			return entryId;
		}
		catch (IOException ex) {
			throw new StorageException("Could not persist the leaf of session " + this.sessionId, ex);
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	/** Unloads if idle: not watched, nobody holds the lock and no caller waits for an fsync. */
	boolean tryUnload() {
		if (this.watchers.get() > 0 || !this.lock.writeLock().tryLock()) {
			return false;
		}
		try {
			if (this.loaded == null || this.watchers.get() > 0 || (this.file != null && this.file.hasPendingSync())) {
				return false;
			}
			summarize(this.loaded);
			closeFile();
			this.loaded = null;
			return true;
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	/** Closes and deletes the file, once the leaf is as expected; later operations find no session. */
	void delete(ExpectedLeaf expected) throws IOException {
		this.lock.writeLock().lock();
		try {
			if (!expected.any()) {
				expected.check(this.sessionId, writable().tree.leafId());
			}
			closeFile(); // appends that wrote before the delete get their fsync and their 201 first: the delete follows
			this.loaded = null;
			Files.deleteIfExists(this.path);
			this.deleted = true; // only now: a session whose file could not be deleted stays usable
			LeafSidecar.delete(this.path);
			AtomicFiles.forceDirectory(this.path.toAbsolutePath().getParent());
			this.changes.publish(new SessionChange.SessionDeleted(this.sessionId, Origin.ARBOR));
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	/** Unloads and releases the file, after the fsync that callers still wait for (shutdown). */
	void close() {
		this.lock.writeLock().lock();
		try {
			closeFile();
			this.loaded = null;
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	/** The fsync that callers of earlier appends still wait for, so that closing the file fails none of them. */
	private void syncPending() {
		if (this.file != null && this.file.hasPendingSync()) {
			try {
				this.file.syncTo(this.file.length());
			}
			catch (IOException ex) {
				// Its waiters see the failure themselves; closing goes on.
			}
		}
	}

	SessionFile openFile() throws IOException {
		if (this.file == null) {
			this.file = this.context.open(this.path);
		}
		return this.file;
	}

	/** After a rewrite replaced the file that the open descriptors hold: opens the new one (under the write lock). */
	SessionFile reopenFile() throws IOException {
		closeFile();
		return openFile();
	}

	FileStoreContext context() {
		return this.context;
	}

	/** Taken by writers; readers share the read lock. */
	ReentrantReadWriteLock.WriteLock writeLock() {
		return this.lock.writeLock();
	}

	/** The session's changes, released to the listeners in the order they were made. */
	ChangeFeed changes() {
		return this.changes;
	}

	void unloadAfterFailure(SessionFile failed) {
		this.lock.writeLock().lock();
		try {
			if (this.file == failed) {
				if (!failed.discardUnsynced()) {
					this.context.log(System.Logger.Level.WARNING, "A failed fsync left lines of failed appends in "
							+ this.path.getFileName() + ": others appended after them, so they were not cut off", null);
				}
				closeFile();
				this.loaded = null; // memory holds entries the disk may not: reload what is really there
			}
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	/**
	 * After a write failed once it may have reached the file (an I/O error, or memory that ran out while the tree took
	 * the entries in): memory may not match the file, so it is never trusted again but read from the file on next use.
	 * The file stays open while callers wait for its fsync (closing it would fail them), and is closed otherwise.
	 */
	void distrustAfterFailedWrite() {
		if (this.file == null || !this.file.hasPendingSync()) {
			closeFile();
		}
		this.loaded = null;
	}

	// the state SessionSync keeps in step with the file; all under the write lock

	@Nullable LoadedTree loaded() {
		return this.loaded;
	}

	void loaded(@Nullable LoadedTree tree) {
		this.loaded = tree;
	}

	@Nullable SessionFile file() {
		return this.file;
	}

	void markDeleted() {
		this.deleted = true;
	}

	/** The file is found elsewhere now: another process moved or renamed it. The summary named the old place. */
	void moved(Path to) {
		this.path = to;
		this.summary = null;
	}

	int watchers() {
		return this.watchers.get();
	}

	void used() {
		this.lastUsed = System.nanoTime();
	}

	/**
	 * Releases the file, after the fsync that callers of earlier appends wait for outside the lock: closing first
	 * would fail them with a closed channel though their entries were written (a delete, a reload, shutdown).
	 */
	void closeFile() {
		if (this.file != null) {
			syncPending();
			try {
				this.file.close();
			}
			catch (IOException ex) {
				// Nothing is pending any more; closing only releases the lock.
			}
			this.file = null;
		}
	}

}

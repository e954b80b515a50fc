package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ChangeFeed;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.SessionFileReader;
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
 * checked or planned against the tree, and before a read, the tree takes in what others appended and is read again
 * whole when they rewrote the file ({@link FileTail}). Arbor appends only at the true end of the file, and never
 * after someone's unfinished line: it waits for the line, up to the grace period.
 * <p>
 * Loaded on first use and unloaded by the registry when memory is needed, unless watched; everything acknowledged
 * is on disk, so unloading never loses data.
 */
final class StoredSession {

	private final String sessionId;

	private final Path path;

	private final FileStoreContext context;

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	/** Guarded by the lock; volatile for the checks that skip it (eviction, the store's watch). */
	private volatile @Nullable LoadedTree loaded;

	private @Nullable SessionFile file;

	private volatile boolean deleted;

	private volatile long lastUsed;

	private volatile @Nullable SessionSummary summary;

	private final AtomicInteger watchers = new AtomicInteger();

	private final ChangeFeed changes;

	StoredSession(String sessionId, Path path, FileStoreContext context) {
		this.sessionId = sessionId;
		this.path = path;
		this.context = context;
		this.changes = new ChangeFeed(context.listener());
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
		return readLoaded(loaded -> reader.apply(loaded.tree));
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

	/** Takes in what others did to the file, if loaded or watched; a session that is neither waits for its next use. */
	private void refresh() {
		if (this.deleted || (this.loaded == null && this.watchers.get() == 0)) {
			return;
		}
		this.lock.writeLock().lock();
		try {
			if (this.loaded == null) {
				if (this.watchers.get() > 0 && !this.deleted) {
					reload(); // a watched session that could not be read before (another process was rewriting it)
				}
				return;
			}
			upToDate(this.loaded);
		}
		catch (SessionNotFoundException ex) {
			// deleted by another process: announced already
		}
		catch (IOException | RuntimeException ex) {
			this.context.log(System.Logger.Level.WARNING, "Could not take in the changes to " + this.path.getFileName(), ex);
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	/**
	 * Takes in what others did to the file, if it looks changed (one {@code stat}; the store's watch and poll call
	 * this when it may have): a session whose file is gone ends, one that is loaded or watched catches up.
	 */
	void refreshIfChanged() {
		if (this.deleted) {
			return;
		}
		LoadedTree current = this.loaded;
		try {
			FileStamp now = FileStamp.read(this.path);
			if (current != null && isCurrent(current, now)) {
				return;
			}
		}
		catch (NoSuchFileException ex) {
			checkRemoved();
			return;
		}
		catch (IOException ex) {
			// unreadable for a moment: catching up says what it is
		}
		refresh();
	}

	private SessionInfo summarize(LoadedTree loaded) {
		SessionSummary taken = SessionSummary.of(this.sessionId, this.path, loaded.tree, loaded.reportedMalformedLines(),
				loaded.consumed);
		this.summary = taken;
		return taken.info();
	}

	/** Reads the loaded tree; loads it, or takes in what others wrote, first (under the write lock) if needed. */
	private <T> T readLoaded(Function<LoadedTree, T> reader) {
		ReentrantReadWriteLock.ReadLock readLock = this.lock.readLock();
		readLock.lock();
		try {
			LoadedTree current = this.loaded;
			if (current != null && !this.deleted && isCurrent(current, FileStamp.read(this.path))) {
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
			upToDate(ensureLoaded());
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

	private boolean isCurrent(LoadedTree current, FileStamp now) {
		return now.unchanged(current.seen)
				&& !(current.hasPendingTail() && now.quietMillis(this.context.nowMillis()) > this.context.graceMillis());
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
			closeFile();
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

	/**
	 * Another process removed the file: the session is gone, its leaf sidecar with it. Under the write lock.
	 *
	 * @return the exception to throw to a caller that wanted the session
	 */
	private SessionNotFoundException removedByOthers() {
		closeFile();
		this.loaded = null;
		if (!this.deleted) {
			this.deleted = true;
			try {
				LeafSidecar.delete(this.path);
			}
			catch (IOException ex) {
				// a stale sidecar only costs its fallback, should a file of that name come back
			}
			this.changes.publish(new SessionChange.SessionDeleted(this.sessionId, Origin.EXTERNAL));
			this.context.removed(this);
		}
		return new SessionNotFoundException(this.sessionId);
	}

	/** Whether the file is gone, and the session with it (announced once). For the store's watch. */
	boolean checkRemoved() {
		if (this.deleted) {
			return true;
		}
		if (Files.exists(this.path)) {
			return false;
		}
		this.lock.writeLock().lock();
		try {
			if (!Files.exists(this.path)) {
				removedByOthers();
				return true;
			}
			return false;
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	/** Unloads and releases the file, after the fsync that callers still wait for (shutdown). */
	void close() {
		this.lock.writeLock().lock();
		try {
			if (this.file != null && this.file.hasPendingSync()) {
				try {
					this.file.syncTo(this.file.length());
				}
				catch (IOException ex) {
					// Its waiters see the failure themselves; closing goes on.
				}
			}
			closeFile();
			this.loaded = null;
		}
		finally {
			this.lock.writeLock().unlock();
		}
	}

	private LoadedTree ensureLoaded() {
		if (this.deleted) {
			throw new SessionNotFoundException(this.sessionId);
		}
		this.lastUsed = System.nanoTime();
		if (this.loaded == null) {
			try {
				this.loaded = load();
				this.context.afterLoad(this);
			}
			catch (NoSuchFileException ex) {
				throw removedByOthers();
			}
			catch (IOException ex) {
				throw new StorageException("Could not read session " + this.sessionId, ex);
			}
		}
		return this.loaded;
	}

	/**
	 * Reads the file whole. A last line without its newline is held back as someone's write in progress while the
	 * file changed within the grace period; in an older file it is a crash remnant, counted and later repaired (§9).
	 */
	private LoadedTree load() throws IOException {
		FileStamp before = FileStamp.read(this.path);
		boolean recent = before.quietMillis(this.context.nowMillis()) <= this.context.graceMillis();
		FileLines lines = FileLines.read(this.path);
		LoadedSession session = SessionFileReader.read(lines, this.path.getFileName().toString(), recent);
		restoreLeaf(session.tree(), session.consumedLength());
		// What was read may reach past the stamp (the file grew meanwhile): its time is then older than the file's.
		return new LoadedTree(session, new FileStamp(lines.length(), before.modified(), before.fileKey()));
	}

	/**
	 * The loaded session, with this process holding the file's OS lock and the tree up to date with the file: once
	 * the lock is held no other Arbor writes, but the agents take no lock, so the tree catches up before every check
	 * or plan against it (SESSION-TREE.md §3, §9).
	 */
	LoadedTree writable() throws IOException {
		LoadedTree current = ensureLoaded();
		if (this.file == null) {
			SessionFile opened = openFile();
			FileStamp now = FileStamp.read(this.path);
			if (opened.isAt(current.seen) && now.unchanged(current.seen) && now.size() == current.consumed) {
				restoreLeaf(current.tree, current.consumed); // another Arbor may have moved it: that changes only the sidecar
			}
		}
		return upToDate(current);
	}

	/**
	 * Takes in what others appended, or reads the file again whole when they rewrote, replaced or shrank it. Under the
	 * write lock.
	 *
	 * @return the tree, now up to date (another object after a reload)
	 * @throws SessionNotFoundException when another process removed the file
	 */
	private LoadedTree upToDate(LoadedTree current) throws IOException {
		FileStamp now;
		try {
			now = FileStamp.read(this.path);
		}
		catch (NoSuchFileException ex) {
			throw removedByOthers();
		}
		FileTail.CatchUp caught;
		if (this.file != null && !this.file.isAt(now)) {
			caught = FileTail.CatchUp.REPLACED;
		}
		else if (this.file != null) {
			caught = FileTail.catchUp(current, now, this.file.reads(), this.context.graceMillis(),
					this.context.nowMillis());
		}
		else {
			try (ReadOnlyFile reads = ReadOnlyFile.open(this.path)) {
				caught = FileTail.catchUp(current, now, reads, this.context.graceMillis(), this.context.nowMillis());
			}
		}
		if (caught.replaced()) {
			return reload();
		}
		if (this.file != null) {
			this.file.reached(current.consumed, !caught.entries().isEmpty());
		}
		current.shared |= !caught.entries().isEmpty() || current.seen.size() > current.consumed;
		publishTakenIn(caught.entries(), caught.oldLeafId());
		return current;
	}

	void publishTakenIn(List<EntryLine> entries, @Nullable String oldLeafId) {
		if (!entries.isEmpty()) {
			this.context.takenIn(entries.size());
			this.changes.publish(new SessionChange.EntriesAppended(this.sessionId, entries, oldLeafId, Origin.EXTERNAL));
		}
	}

	/**
	 * Reads the file again whole, after another process rewrote, replaced or shrank it (never writing at an offset
	 * that no longer means anything), and says so. Under the write lock.
	 */
	private LoadedTree reload() throws IOException {
		closeFile();
		this.loaded = null;
		LoadedTree fresh = ensureLoaded();
		this.context.reloaded();
		this.changes.publish(new SessionChange.SessionReloaded(summarize(fresh)));
		return fresh;
	}

	private void restoreLeaf(SessionTree tree, long fileLength) throws IOException {
		LeafSidecar.read(this.path)
			.filter(recorded -> recorded.fileLength() == fileLength)
			.filter(recorded -> recorded.leafId() == null || tree.contains(recorded.leafId()))
			.ifPresent(recorded -> tree.moveLeaf(recorded.leafId()));
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

	/** After a write failed half way: memory may not match the file, so it is read again on next use. */
	void unloadAfterFailedWrite() {
		if (this.file == null || !this.file.hasPendingSync()) {
			closeFile();
			this.loaded = null;
		}
	}

	private void closeFile() {
		if (this.file != null) {
			try {
				this.file.close();
			}
			catch (IOException ex) {
				// Nothing is pending (checked by callers); closing only releases the lock.
			}
			this.file = null;
		}
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionLines;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ChangeFeed;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.StorageException;
import org.jspecify.annotations.Nullable;

/**
 * One session file and, while it is loaded, its tree. Readers share a read lock; writers take the
 * write lock to check, plan, write and add their entries, then wait for the fsync outside it so
 * that concurrent appends share fsyncs (see {@link SessionFile}).
 * <p>
 * Loaded on first use and unloaded by the registry when memory is needed; everything acknowledged
 * is on disk, so unloading never loses data.
 */
final class StoredSession {

	private final String sessionId;

	private final Path path;

	private final SessionFile.Opener files;

	private final InstantSource clock;

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	private @Nullable LoadedTree loaded;

	private @Nullable SessionFile file;

	private boolean deleted;

	private volatile long lastUsed;

	private volatile @Nullable SessionSummary summary;

	private final Consumer<StoredSession> afterLoad;

	private final ChangeFeed changes;

	/**
	 * @param files opens the file for writing, with the store's fsync policy
	 * @param afterLoad told after each load, under this session's lock (the registry's eviction)
	 * @param listener told of each change once it is durable, in order
	 */
	StoredSession(String sessionId, Path path, SessionFile.Opener files, InstantSource clock,
			Consumer<StoredSession> afterLoad, SessionChangeListener listener) {
		this.sessionId = sessionId;
		this.path = path;
		this.files = files;
		this.clock = clock;
		this.afterLoad = afterLoad;
		this.changes = new ChangeFeed(listener);
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
		return (current != null) ? current.bytes : 0;
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

	private SessionInfo summarize(LoadedTree loaded) {
		SessionSummary taken = SessionSummary.of(this.sessionId, this.path, loaded.tree, loaded.malformedLines,
				loaded.bytes);
		this.summary = taken;
		return taken.info();
	}

	private <T> T readLoaded(Function<LoadedTree, T> reader) {
		ReentrantReadWriteLock.ReadLock readLock = this.lock.readLock();
		readLock.lock();
		try {
			if (this.loaded != null) {
				return reader.apply(this.loaded);
			}
		}
		finally {
			readLock.unlock();
		}
		this.lock.writeLock().lock();
		try {
			ensureLoaded();
			readLock.lock(); // downgrade: no eviction between loading and reading
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

	/**
	 * Plans entries against the tree and makes them durable; the tree takes them only once written.
	 * The fsync is awaited after the write lock is released.
	 */
	List<EntryLine> append(ExpectedLeaf expected, Function<SessionTree, List<EntryLine>> planner) {
		SessionFile target;
		long end;
		List<EntryLine> lines;
		ChangeFeed.Pending change;
		this.lock.writeLock().lock();
		try {
			LoadedTree current = ensureWritable();
			String oldLeafId = current.tree.leafId();
			expected.check(this.sessionId, oldLeafId);
			lines = planner.apply(current.tree);
			if (current.needsRewrite) {
				rewriteWith(current, lines);
				this.changes.publish(new SessionChange.EntriesAppended(this.sessionId, lines, oldLeafId));
				return lines;
			}
			target = openFile();
			long start = target.length();
			end = target.write(SessionContent.lines(lines, !current.endsWithNewline));
			current.endsWithNewline = true;
			current.tree.append(lines);
			current.bytes += end - start;
			change = this.changes.enqueue(new SessionChange.EntriesAppended(this.sessionId, lines, oldLeafId));
		}
		catch (IOException ex) {
			throw new StorageException("Could not write session " + this.sessionId, ex);
		}
		finally {
			this.lock.writeLock().unlock();
		}
		try {
			target.syncTo(end);
		}
		catch (IOException ex) {
			this.changes.dropped(change);
			unloadAfterFailure(target);
			throw new StorageException("Could not make session " + this.sessionId + " durable", ex);
		}
		this.changes.durable(change);
		return lines;
	}

	/** {@code branch}/{@code resetLeaf}, persisted in the leaf sidecar before it takes effect. */
	@Nullable String moveLeaf(ExpectedLeaf expected, @Nullable String entryId) {
		this.lock.writeLock().lock();
		try {
			LoadedTree current = ensureWritable();
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
			LeafSidecar.write(this.path, entryId, target.length());
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

	/** Unloads if idle: nobody holds the lock and no caller waits for an fsync. */
	boolean tryUnload() {
		if (!this.lock.writeLock().tryLock()) {
			return false;
		}
		try {
			if (this.loaded == null || (this.file != null && this.file.hasPendingSync())) {
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

	boolean isDeleted() {
		return this.deleted;
	}

	/** Closes and deletes the file, once the leaf is as expected; later operations find no session. */
	void delete(ExpectedLeaf expected) throws IOException {
		this.lock.writeLock().lock();
		try {
			if (!expected.any()) {
				expected.check(this.sessionId, ensureWritable().tree.leafId());
			}
			closeFile();
			this.loaded = null;
			Files.deleteIfExists(this.path);
			this.deleted = true; // only now: a session whose file could not be deleted stays usable
			LeafSidecar.delete(this.path);
			AtomicFiles.forceDirectory(this.path.toAbsolutePath().getParent());
			this.changes.publish(new SessionChange.SessionDeleted(this.sessionId));
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
				LoadedSession session = SessionFileReader.read(this.path);
				restoreLeaf(session);
				this.loaded = new LoadedTree(session);
				this.afterLoad.accept(this);
			}
			catch (NoSuchFileException ex) {
				throw new SessionNotFoundException(this.sessionId); // removed by someone else
			}
			catch (IOException ex) {
				throw new StorageException("Could not read session " + this.sessionId, ex);
			}
		}
		return this.loaded;
	}

	/**
	 * The loaded session, with this process holding the file's OS lock. A tree read before the lock was taken may
	 * be stale: another process (or store) may have appended or moved the leaf since. Once the lock is held
	 * nobody else writes, so the tree is brought up to date then, before any check or plan against it
	 * (SESSION-TREE.md §3, §9).
	 */
	private LoadedTree ensureWritable() throws IOException {
		while (true) {
			LoadedTree current = ensureLoaded();
			if (this.file != null) {
				return current; // held since the tree was last brought up to date
			}
			SessionFile opened = openFile();
			if (opened.length() == current.bytes) {
				restoreLeaf(current.tree, current.bytes); // a leaf move changes only the sidecar
				return current;
			}
			// Appended to since read: read it again. Not through a second descriptor while holding the lock:
			// closing that would release every POSIX lock this process holds on the file.
			closeFile();
			this.loaded = null;
		}
	}

	private void restoreLeaf(LoadedSession session) throws IOException {
		restoreLeaf(session.tree(), session.fileLength());
	}

	private void restoreLeaf(SessionTree tree, long fileLength) throws IOException {
		LeafSidecar.read(this.path)
			.filter(recorded -> recorded.fileLength() == fileLength)
			.filter(recorded -> recorded.leafId() == null || tree.contains(recorded.leafId()))
			.ifPresent(recorded -> tree.moveLeaf(recorded.leafId()));
	}

	private SessionFile openFile() throws IOException {
		if (this.file == null) {
			this.file = this.files.open(this.path);
		}
		return this.file;
	}

	/**
	 * The first write to a migrated or damaged file rewrites it whole as version 3, with the new lines,
	 * atomically; the original bytes go to a backup first when lines were skipped on load (§9).
	 */
	private void rewriteWith(LoadedTree current, List<EntryLine> lines) throws IOException {
		SessionFile locked = openFile(); // hold the OS lock while replacing
		if (current.needsBackup) {
			locked.copyTo(StorageFiles.backup(this.path, this.clock.instant()));
		}
		List<EntryLine> all = new ArrayList<>(current.tree.getEntries());
		all.addAll(lines);
		SessionTree tree = current.tree;
		AtomicFiles.replace(this.path, SessionContent.of(new SessionLines(tree.titleSlot(), tree.header(), all)));
		closeFile(); // the lock was on the replaced file
		SessionFile reopened = openFile();
		tree.append(lines);
		current.needsRewrite = false;
		current.needsBackup = false;
		current.malformedLines = 0;
		current.endsWithNewline = true;
		current.bytes = reopened.length();
	}

	private void unloadAfterFailure(SessionFile failed) {
		this.lock.writeLock().lock();
		try {
			if (this.file == failed) {
				failed.discardUnsynced();
				closeFile();
				this.loaded = null; // memory holds entries the disk may not: reload what is really there
			}
		}
		finally {
			this.lock.writeLock().unlock();
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

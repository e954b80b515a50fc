package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ChangeFeed;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.StorageException;
import org.jspecify.annotations.Nullable;

/**
 * Keeps one {@link StoredSession}'s tree in step with its file, which other processes (the agent that owns it) may
 * write at any time: loads it, takes in what others appended before anything is checked, planned or read
 * ({@link FileTail}), reads it again whole when they rewrote, replaced or shrank it, follows the file when they moved
 * or renamed it, and ends the session when they removed it, announcing each. Everything here runs under the
 * session's write lock, except the quick looks that decide whether it must be taken.
 */
final class SessionSync {

	private final StoredSession session;

	private final String sessionId;

	private final FileStoreContext context;

	private final ChangeFeed changes;

	SessionSync(StoredSession session, FileStoreContext context, ChangeFeed changes) {
		this.session = session;
		this.sessionId = session.sessionId();
		this.context = context;
		this.changes = changes;
	}

	/** Takes in what others did to the file, if loaded or watched; a session that is neither waits for its next use. */
	private void refresh() {
		if (this.session.isDeleted()
				|| (this.session.loaded() == null && this.session.watchers() == 0 && !this.session.changedSinceSeen())) {
			return;
		}
		this.session.writeLock().lock();
		try {
			if (this.session.loaded() == null) {
				// a watched session that could not be read before (another process was rewriting it), or one out of
				// memory that another process changed since it was last read: read whole and announced, so that
				// listings and search take in what changed (docs/STORAGE.md#beside-a-running-agent)
				if (!this.session.isDeleted() && (this.session.watchers() > 0 || this.session.changedSinceSeen())) {
					reload();
				}
				return;
			}
			upToDate(this.session.loaded());
		}
		catch (SessionNotFoundException ex) {
			// deleted by another process: announced already
		}
		catch (IOException | RuntimeException ex) {
			this.context.log(System.Logger.Level.WARNING,
					"Could not take in the changes to " + this.session.path().getFileName(), ex);
		}
		finally {
			this.session.writeLock().unlock();
		}
	}

	/**
	 * Takes in what others did to the file, if it looks changed (one {@code stat}; the store's watch and poll call
	 * this when it may have): a session whose file is gone ends, one that is loaded or watched catches up.
	 */
	void refreshIfChanged() {
		if (this.session.isDeleted()) {
			return;
		}
		LoadedTree current = this.session.loaded();
		try {
			FileStamp now = FileStamp.read(this.session.path());
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

	/** Whether the tree has taken in all there is: the file is as last seen, with no unfinished line past its grace. */
	boolean isCurrent(LoadedTree current, FileStamp now) {
		return now.unchanged(current.seen)
				&& !(current.hasPendingTail() && now.quietMillis(this.context.nowMillis()) > this.context.graceMillis());
	}

	/**
	 * Another process removed the file: the session is gone, its leaf sidecar with it. Under the write lock.
	 *
	 * @return the exception to throw to a caller that wanted the session
	 */
	private SessionNotFoundException removedByOthers() {
		this.session.closeFile();
		this.session.loaded(null);
		if (!this.session.isDeleted()) {
			this.session.markDeleted();
			try {
				LeafSidecar.delete(this.session.path());
			}
			catch (IOException ex) {
				// a stale sidecar only costs its fallback, should a file of that name come back
			}
			this.changes.publish(new SessionChange.SessionDeleted(this.sessionId, Origin.EXTERNAL));
			this.context.removed(this.session);
		}
		return new SessionNotFoundException(this.sessionId);
	}

	/**
	 * The file is not where it was. When another process moved or renamed it under the storage directory (a file of
	 * this session's id appeared that no session has), the session follows it, its leaf sidecar along, and says so once
	 * (docs/STORAGE.md#beside-a-running-agent): the same session, not one deleted and another created. Under the write
	 * lock.
	 *
	 * @return whether it was found; if not, it was removed
	 */
	private boolean followedMove() {
		Path from = this.session.path();
		Path to = this.context.lookFor(this.session);
		if (to == null) {
			return false;
		}
		try {
			LeafSidecar.move(from, to);
		}
		catch (IOException ex) {
			this.context.log(System.Logger.Level.WARNING, "The leaf of " + from.getFileName() + " did not follow it to "
					+ to.getFileName() + "; it falls back to the last entry", ex);
		}
		this.session.moved(to);
		this.context.moved(this.session, from);
		this.changes
			.publish(new SessionChange.SessionMoved(this.sessionId, this.context.name(from), this.context.name(to)));
		return true;
	}

	/**
	 * Whether the file is gone, and the session with it (announced once); a file that was moved is followed. For the
	 * store's watch.
	 */
	boolean checkRemoved() {
		if (this.session.isDeleted()) {
			return true;
		}
		if (Files.exists(this.session.path())) {
			return false;
		}
		this.session.writeLock().lock();
		try {
			if (!Files.exists(this.session.path()) && !followedMove()) {
				removedByOthers();
				return true;
			}
			return false;
		}
		finally {
			this.session.writeLock().unlock();
		}
	}

	LoadedTree ensureLoaded() {
		if (this.session.isDeleted()) {
			throw new SessionNotFoundException(this.sessionId);
		}
		this.session.used();
		if (this.session.loaded() == null) {
			try {
				this.session.loaded(load());
				this.context.afterGrowth(this.session);
			}
			catch (NoSuchFileException ex) {
				if (!followedMove()) {
					throw removedByOthers();
				}
				return ensureLoaded();
			}
			catch (IOException ex) {
				throw new StorageException("Could not read session " + this.sessionId, ex);
			}
		}
		return this.session.loaded();
	}

	/**
	 * Reads the file whole. A last line without its newline is held back as someone's write in progress while the
	 * file changed within the grace period; in an older file it is a crash remnant, counted and later repaired
	 * (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
	 */
	private LoadedTree load() throws IOException {
		Path path = this.session.path();
		this.context.checkBoundary(path);
		FileStamp before = FileStamp.read(path);
		boolean recent = before.quietMillis(this.context.nowMillis()) <= this.context.graceMillis();
		FileLines lines = FileLines.read(path);
		LoadedSession session = SessionFileReader.read(lines, path.getFileName().toString(), recent);
		restoreLeaf(session.tree(), session.consumedLength());
		// What was read may reach past the stamp (the file grew meanwhile): its time is then older than the file's.
		return new LoadedTree(session, new FileStamp(lines.length(), before.modified(), before.fileKey()));
	}

	/**
	 * The loaded session, with this process holding the file's OS lock and the tree up to date with the file: once
	 * the lock is held no other Arbor writes, but the agents take no lock, so the tree catches up before every check
	 * or plan against it (docs/SESSION-FORMAT.md#reading-a-file and docs/SESSION-FORMAT.md#durability-and-concurrency).
	 */
	LoadedTree writable() throws IOException {
		LoadedTree current = ensureLoaded();
		if (this.session.file() == null) {
			SessionFile opened = this.session.openFile();
			FileStamp now = FileStamp.read(this.session.path());
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
	LoadedTree upToDate(LoadedTree current) throws IOException {
		Path path = this.session.path();
		FileStamp now;
		try {
			this.context.checkBoundary(path); // replaced by a link that is not followed: gone, to the session
			now = FileStamp.read(path);
		}
		catch (NoSuchFileException ex) {
			if (!followedMove()) {
				throw removedByOthers();
			}
			return upToDate(current); // the same file under its new name, or one that replaced it there: a reload
		}
		FileTail.CatchUp caught;
		if (this.session.file() != null && !this.session.file().isAt(now)) {
			caught = FileTail.CatchUp.REPLACED;
		}
		else if (this.session.file() != null) {
			caught = FileTail.catchUp(current, now, this.session.file().reads(), this.context.graceMillis(),
					this.context.nowMillis());
		}
		else {
			try (ReadOnlyFile reads = ReadOnlyFile.open(path)) {
				caught = FileTail.catchUp(current, now, reads, this.context.graceMillis(), this.context.nowMillis());
			}
		}
		if (caught.replaced()) {
			return reload();
		}
		if (this.session.file() != null) {
			this.session.file().reached(current.consumed, !caught.entries().isEmpty());
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
		this.session.closeFile();
		this.session.loaded(null);
		LoadedTree fresh = ensureLoaded();
		this.context.reloaded();
		this.changes.publish(new SessionChange.SessionReloaded(this.session.summarize(fresh)));
		return fresh;
	}

	private void restoreLeaf(SessionTree tree, long fileLength) throws IOException {
		LeafSidecar.read(this.session.path())
			.filter(recorded -> recorded.fileLength() == fileLength)
			.filter(recorded -> recorded.leafId() == null || tree.contains(recorded.leafId()))
			.ifPresent(recorded -> tree.moveLeaf(recorded.leafId()));
	}

}

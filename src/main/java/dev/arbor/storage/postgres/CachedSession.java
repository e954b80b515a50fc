package dev.arbor.storage.postgres;

import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import dev.arbor.session.SessionTree;
import org.jspecify.annotations.Nullable;

/**
 * One session's tree as this replica holds it, and the position in the database it stands at. Readers share the
 * read lock; bringing it up to date and applying this replica's own changes take the write lock.
 */
final class CachedSession {

	final String sessionId;

	final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	/** Guarded by the lock. */
	private @Nullable SessionTree tree;

	private @Nullable UUID incarnation;

	private long position;

	/** The session's size as a file, and what the selector's views keep: what counts toward the cache budget. */
	private volatile long bytes;

	private volatile long lastUsed;

	CachedSession(String sessionId) {
		this.sessionId = sessionId;
	}

	/** Whether the tree is that of the row (the same session, no change behind it); under either lock. */
	boolean isCurrent(SessionRow row) {
		return this.tree != null && Objects.equals(this.incarnation, row.incarnation())
				&& this.position >= row.position();
	}

	/** Whether the tree is of the row's session (not one deleted since): it can catch up by its new entries. */
	boolean isSameIncarnation(SessionRow row) {
		return this.tree != null && Objects.equals(this.incarnation, row.incarnation());
	}

	SessionTree tree() {
		return Objects.requireNonNull(this.tree, "not loaded");
	}

	boolean isLoaded() {
		return this.tree != null;
	}

	/** Under the write lock. */
	void loaded(SessionTree loaded, UUID incarnation, long position, long fileBytes) {
		this.tree = loaded;
		this.incarnation = incarnation;
		this.position = position;
		this.bytes = fileBytes + loaded.keptViewBytes();
	}

	/** The tree took in changes up to this position; under the write lock. */
	void advanced(long newPosition, long fileBytes) {
		this.position = Math.max(this.position, newPosition);
		this.bytes = fileBytes + tree().keptViewBytes();
	}

	/** After a read that made the selector keep more. */
	void grew(long fileBytes) {
		this.bytes = fileBytes + tree().keptViewBytes();
	}

	/** Under the write lock. */
	void unload() {
		this.tree = null;
		this.incarnation = null;
		this.bytes = 0;
	}

	long bytes() {
		return this.bytes;
	}

	void used() {
		this.lastUsed = System.nanoTime();
	}

	long lastUsed() {
		return this.lastUsed;
	}

}

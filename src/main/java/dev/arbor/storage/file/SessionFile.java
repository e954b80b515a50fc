package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.arbor.storage.SessionLockedException;
import org.jspecify.annotations.Nullable;

/**
 * The bytes of one session file, open for appending, with the OS lock that keeps other writers out
 * (SESSION-TREE.md §9).
 * <p>
 * {@link #write} is called by one writer at a time (the session's write lock); {@link #syncTo} by any
 * number of threads after they released that lock. Group commit: a thread that finds an fsync in
 * flight waits for it and, if its bytes came later, the next fsync covers everyone who arrived
 * meanwhile. So concurrent appends to one session share fsyncs instead of queueing behind each
 * other, and each caller is released by the first fsync that covers its last byte (Kafka advances its
 * recovery point the same way).
 * <p>
 * After a failed write or fsync the file takes no more writes: a retried fsync can "succeed" after
 * the kernel dropped the dirty pages. The session is reopened from disk instead.
 */
final class SessionFile implements Closeable {

	private final Path path;

	private final FileChannel channel;

	private final FileLock lock;

	private final FsyncPolicy fsync;

	private final Force force;

	/** Bytes written (page cache); advanced by the writer holding the session's write lock. */
	private volatile long written;

	/** Bytes known to be on disk. Guarded by {@code this}. */
	private long durable;

	private boolean syncing;

	private @Nullable IOException failure;

	private SessionFile(Path path, FileChannel channel, FileLock lock, FsyncPolicy fsync, Force force)
			throws IOException {
		this.path = path;
		this.force = force;
		this.channel = channel;
		this.lock = lock;
		this.fsync = fsync;
		this.written = channel.size();
		this.durable = this.written;
	}

	/**
	 * Opens an existing file for appending and takes its OS lock, or fails at once if another process holds it.
	 *
	 * @param force how its bytes are forced to disk (the store's fdatasync, timed; failing ones in tests)
	 */
	static SessionFile open(Path path, FsyncPolicy fsync, Force force) throws IOException {
		FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
		try {
			FileLock lock = channel.tryLock();
			if (lock == null) {
				throw new SessionLockedException(path);
			}
			return new SessionFile(path, channel, lock, fsync, force);
		}
		catch (IOException | RuntimeException ex) {
			channel.close();
			if (ex instanceof OverlappingFileLockException) {
				throw new SessionLockedException(path);
			}
			throw ex;
		}
	}

	Path path() {
		return this.path;
	}

	long length() {
		return this.written;
	}

	/**
	 * Writes whole lines at the end, all or nothing: a failed write is cut back off. Not yet durable:
	 * call {@link #syncTo} with the returned end after releasing the session's write lock.
	 * <p>
	 * A batch goes out in one write, so every failure Arbor sees removes it whole. A crash of the
	 * machine (or a kill) in the middle of a batch larger than a page can still leave a prefix of its
	 * lines on disk: the JSONL format has no batch markers to tell such a prefix apart.
	 */
	long write(ByteBuffer wholeLines) throws IOException {
		throwIfFailed();
		long start = this.written;
		long position = start;
		try {
			while (wholeLines.hasRemaining()) {
				position += this.channel.write(wholeLines, position);
			}
		}
		catch (IOException ex) {
			fail(ex);
			truncateQuietly(start);
			throw ex;
		}
		this.written = position;
		return position;
	}

	/** Returns once every byte up to {@code end} is on disk (or at once with {@link FsyncPolicy#NEVER}). */
	void syncTo(long end) throws IOException {
		if (this.fsync == FsyncPolicy.NEVER) {
			throwIfFailed();
			return;
		}
		synchronized (this) {
			while (true) {
				throwIfFailed();
				if (this.durable >= end) {
					return;
				}
				if (!this.syncing) {
					this.syncing = true;
					break;
				}
				waitForSync();
			}
		}
		long target = this.written; // everything written so far rides on this fsync
		try {
			this.force.force(this.channel);
		}
		catch (IOException ex) {
			synchronized (this) {
				fail(ex);
				this.syncing = false;
				notifyAll();
			}
			throw ex;
		}
		synchronized (this) {
			this.durable = Math.max(this.durable, target);
			this.syncing = false;
			notifyAll();
		}
	}

	/**
	 * Copies the file's bytes to a new file, durably: the backup kept before a repair. Reads through
	 * this channel because opening the file again and closing that descriptor would release this
	 * process's POSIX lock on it.
	 */
	void copyTo(Path copy) throws IOException {
		try (FileChannel out = FileChannel.open(copy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
			long size = this.channel.size();
			long position = 0;
			while (position < size) {
				position += this.channel.transferTo(position, size - position, out);
			}
			out.force(true);
		}
		AtomicFiles.forceDirectory(copy.toAbsolutePath().getParent());
	}

	/**
	 * After a failed fsync: cuts off every byte not known to be on disk, so that no caller told of the
	 * failure finds its entries on the next load (all or nothing). Best effort; the caller holds the
	 * session's write lock, so no write races the truncation.
	 */
	synchronized void discardUnsynced() {
		if (this.failure != null && this.fsync == FsyncPolicy.ALWAYS) {
			truncateQuietly(this.durable);
		}
	}

	/** Whether a caller still waits for its bytes to reach the disk (the file must stay open for it). */
	synchronized boolean hasPendingSync() {
		return this.fsync == FsyncPolicy.ALWAYS && (this.syncing || this.durable < this.written);
	}

	@Override
	public void close() throws IOException {
		try {
			if (this.lock.isValid()) {
				this.lock.release();
			}
		}
		finally {
			this.channel.close();
		}
	}

	private void waitForSync() throws IOException {
		try {
			wait();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while waiting for fsync of " + this.path.getFileName(), ex);
		}
	}

	private synchronized void fail(IOException ex) {
		if (this.failure == null) {
			this.failure = ex;
		}
	}

	private synchronized void throwIfFailed() throws IOException {
		if (this.failure != null) {
			throw new IOException("An earlier write to " + this.path.getFileName() + " failed; the file takes no more writes",
					this.failure);
		}
	}

	private void truncateQuietly(long length) {
		try {
			this.channel.truncate(length);
		}
		catch (IOException ex) {
			// The reader on reopen accounts for any torn tail; the failure above is what the caller sees.
		}
	}

	/** Opens a session file as a store does: with its fsync policy and its way to force. */
	@FunctionalInterface
	interface Opener {

		SessionFile open(Path path) throws IOException;

	}

	/** How a file's bytes are forced to disk. */
	@FunctionalInterface
	interface Force {

		void force(FileChannel channel) throws IOException;

	}

}

package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

import dev.arbor.storage.SessionLockedException;
import org.jspecify.annotations.Nullable;

/**
 * The bytes of one session file, open for appending, with the OS lock that keeps other Arbor processes out
 * (docs/SESSION-FORMAT.md#durability-and-concurrency). The agents take no lock: they append whole lines with
 * {@code appendFileSync} whenever they like. So Arbor appends in append mode ({@code O_APPEND}): the kernel puts every
 * write at the true end of the file, after whatever others wrote, and never over it.
 * <p>
 * {@link #append} is called by one writer at a time (the session's write lock); {@link #syncTo} by any number of
 * threads after they released that lock. Group commit: a thread that finds an fsync in flight waits for it and, if
 * its bytes came later, the next fsync covers everyone who arrived meanwhile. So concurrent appends to one session
 * share fsyncs instead of queueing behind each other, and each caller is released by the first fsync that covers
 * its last byte (Kafka advances its recovery point the same way). An fsync covers the lines of others too.
 * <p>
 * After a failed write or fsync the file takes no more writes: a retried fsync can "succeed" after the kernel
 * dropped the dirty pages. The session is reopened from disk instead.
 */
final class SessionFile implements Closeable {

	/** A file replaced again and again while being opened is not opened. */
	private static final int OPEN_ATTEMPTS = 5;

	private final Path path;

	/** In append mode: writes only, each at the end. */
	private final FileChannel appends;

	/**
	 * What others appended, and the backup, read through a descriptor that stays open as long as the lock is held:
	 * closing one would release the lock.
	 */
	private final ReadOnlyFile reads;

	private final FileLock lock;

	private final @Nullable Object fileKey;

	private final FsyncPolicy fsync;

	private final Force force;

	/** The end of the file as far as the session has taken it in: its own writes and the lines of others. */
	private volatile long written;

	/** Bytes known to be on disk. Guarded by {@code this}. */
	private long durable;

	/** Whether lines of others were taken in since the last fsync: undoing a failed one must not cut them off. */
	private boolean othersSinceDurable;

	private boolean syncing;

	private @Nullable IOException failure;

	private SessionFile(Path path, FileChannel appends, ReadOnlyFile reads, FileLock lock, @Nullable Object fileKey,
			FsyncPolicy fsync, Force force) throws IOException {
		this.path = path;
		this.appends = appends;
		this.reads = reads;
		this.lock = lock;
		this.fileKey = fileKey;
		this.fsync = fsync;
		this.force = force;
		this.written = reads.size();
		this.durable = this.written;
	}

	/**
	 * Opens an existing file for appending and takes its OS lock, or fails at once if another process holds it.
	 *
	 * @param force how its bytes are forced to disk (the store's fdatasync, timed; failing ones in tests)
	 */
	static SessionFile open(Path path, FsyncPolicy fsync, Force force) throws IOException {
		for (int attempt = 1;; attempt++) {
			FileStamp before = FileStamp.read(path);
			FileChannel appends = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
			ReadOnlyFile reads = null;
			try {
				reads = ReadOnlyFile.open(path);
				FileLock lock = appends.tryLock();
				if (lock == null) {
					throw new SessionLockedException(path);
				}
				// The identity must be that of the file these descriptors hold: had another process renamed a file
				// over the path meanwhile, the stamps differ and the path is opened again.
				FileStamp after = FileStamp.read(path);
				if (before.sameFile(after) || attempt == OPEN_ATTEMPTS) {
					if (!before.sameFile(after)) {
						throw new IOException("Kept being replaced while being opened: " + path.getFileName());
					}
					return new SessionFile(path, appends, reads, lock, after.fileKey(), fsync, force);
				}
				lock.release();
				closeQuietly(reads);
				appends.close();
			}
			catch (IOException | RuntimeException ex) {
				closeQuietly(reads);
				appends.close();
				if (ex instanceof OverlappingFileLockException) {
					throw new SessionLockedException(path);
				}
				throw ex;
			}
		}
	}

	Path path() {
		return this.path;
	}

	/** The end of what the session has taken in. */
	long length() {
		return this.written;
	}

	/** Whether the path still names the file these descriptors hold (not one another process renamed over it). */
	boolean isAt(FileStamp stamp) {
		return Objects.equals(this.fileKey, stamp.fileKey());
	}

	/** The file's length now, others' appends included. */
	long size() throws IOException {
		return this.reads.size();
	}

	/** The file's bytes, for catching up with what others appended. */
	ReadOnlyFile reads() {
		return this.reads;
	}

	/** The bytes from one position to another (the lines others appended to a file about to be replaced). */
	byte[] bytes(long from, long to) throws IOException {
		return this.reads.bytes(from, to);
	}

	/**
	 * Appends whole lines at the end of the file, whatever others appended (append mode). Not yet durable: call
	 * {@link #syncTo} after releasing the session's write lock. Where the lines landed is for the caller to check
	 * ({@link #holds}): at {@code expectedStart} unless another process wrote in between.
	 * <p>
	 * A batch goes out in one write, so another process's write never lands inside it, and every failure Arbor
	 * sees removes it whole, if nothing was appended after it meanwhile. A crash of the machine (or a kill) in the
	 * middle of a batch larger than a page can still leave a prefix of its lines on disk: the JSONL format has no
	 * batch markers to tell such a prefix apart.
	 *
	 * @param expectedStart the end of the file as checked under the session's lock just before
	 */
	void append(ByteBuffer wholeLines, long expectedStart) throws IOException {
		throwIfFailed();
		byte[] head = FileRegions.head(wholeLines);
		int length = wholeLines.remaining();
		try {
			while (wholeLines.hasRemaining()) {
				this.appends.write(wholeLines);
			}
		}
		catch (IOException ex) {
			fail(ex);
			// Only bytes known to be this write's own, with nothing after them, are cut back off.
			if (this.reads.holds(expectedStart, head) && size() <= expectedStart + length) {
				truncateQuietly(expectedStart);
			}
			throw ex;
		}
	}

	/**
	 * Takes note that the file is known to reach this far: this session's own lines, or others' taken in.
	 *
	 * @param others whether the bytes up to there include lines of another process
	 */
	synchronized void reached(long end, boolean others) {
		if (end <= this.written) {
			return;
		}
		if (others && this.durable >= this.written) {
			this.durable = end; // nothing of this session's waits: others' lines are as durable as they made them
		}
		else {
			this.othersSinceDurable |= others;
		}
		this.written = end;
	}

	/**
	 * Removes bytes at the end of the file, if the file still ends where the caller saw it end: the lines of a
	 * write that landed on another process's unfinished line, before anyone appended after them.
	 *
	 * @return whether the file was cut
	 */
	boolean truncateIfEndsAt(long end, long newLength) throws IOException {
		if (this.reads.size() != end) {
			return false;
		}
		this.appends.truncate(newLength);
		return true;
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
			this.force.force(this.appends);
		}
		catch (IOException | RuntimeException | Error ex) {
			// Whatever failed (memory that ran out on this thread too), nobody knows what reached the disk: a failed
			// fsync, never retried, and the waiters released to say so rather than left waiting for ever
			IOException failed = (ex instanceof IOException io) ? io
					: new IOException("The fsync of " + this.path.getFileName() + " failed", ex);
			synchronized (this) {
				fail(failed);
				this.syncing = false;
				notifyAll();
			}
			throw failed;
		}
		synchronized (this) {
			if (target >= this.durable) {
				this.durable = target;
				this.othersSinceDurable = this.othersSinceDurable && target < this.written;
			}
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
		this.reads.copyTo(copy);
	}

	/**
	 * After a failed fsync: cuts off every byte not known to be on disk, so that no caller told of the failure finds
	 * its entries on the next load (all or nothing). Only when those bytes are all this session's own and nothing
	 * follows them: lines that another process appended are never cut off. Best effort; the caller holds the
	 * session's write lock, so no write of this process races the truncation.
	 *
	 * @return whether the unsynced bytes are gone
	 */
	synchronized boolean discardUnsynced() {
		if (this.failure == null || this.fsync != FsyncPolicy.ALWAYS) {
			return false;
		}
		try {
			if (this.othersSinceDurable || this.reads.size() != this.written) {
				return false;
			}
		}
		catch (IOException ex) {
			return false;
		}
		return truncateQuietly(this.durable);
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
			closeQuietly(this.reads);
			this.appends.close();
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

	private boolean truncateQuietly(long length) {
		try {
			this.appends.truncate(length);
			return true;
		}
		catch (IOException ex) {
			return false; // the reader on reopen accounts for any torn tail; the failure is what the caller sees
		}
	}

	private static void closeQuietly(@Nullable ReadOnlyFile file) {
		if (file != null) {
			try {
				file.close();
			}
			catch (IOException ex) {
				// nothing was written through it
			}
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

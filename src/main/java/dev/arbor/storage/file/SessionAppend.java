package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ChangeFeed;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionBusyException;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.StorageException;
import org.jspecify.annotations.Nullable;

/**
 * One append to a session's file, which other processes may be appending to as well
 * (docs/SESSION-FORMAT.md#durability-and-concurrency). Under the session's write lock: the tree catches up with the
 * file, the condition is checked and the entries planned, and they are written at the true end of the file, never after
 * another process's unfinished line (the append waits for it, outside the lock, for up to twice the grace period).
 * Where they landed is checked, and the tree takes them in file order. The fsync is awaited after the lock is released,
 * so concurrent appends share it (group commit).
 */
final class SessionAppend {

	/** How long an append waits, between looks, for another process to finish its line. */
	private static final long TAIL_WAIT_MILLIS = 5;

	private final StoredSession session;

	/** This append's change, once queued: settled whatever happens after, or the session's later changes wait. */
	private ChangeFeed.@Nullable Pending change;

	private SessionAppend(StoredSession session) {
		this.session = session;
	}

	/**
	 * Plans entries against the tree and makes them durable; the tree takes them only once written. Waits, outside
	 * the lock, while someone else's line is unfinished at the end of the file. The fsync is awaited after the write
	 * lock is released.
	 */
	static List<EntryLine> run(StoredSession session, ExpectedLeaf expected,
			Function<SessionTree, List<EntryLine>> planner) {
		return new SessionAppend(session).append(expected, planner);
	}

	private List<EntryLine> append(ExpectedLeaf expected, Function<SessionTree, List<EntryLine>> planner) {
		long deadline = System.nanoTime() + 2 * this.session.context().graceMillis() * 1_000_000 + 1_000_000_000L;
		while (true) {
			Written written = null;
			boolean overtaken = false;
			boolean writing = false;
			this.session.writeLock().lock();
			try {
				LoadedTree current = this.session.writable();
				if (!current.hasPendingTail()) {
					String oldLeafId = current.tree.leafId();
					expected.check(this.session.sessionId(), oldLeafId);
					List<EntryLine> lines = planner.apply(current.tree);
					this.session.context().checkRoom(this.session.sessionId(), current.bytes(), lines);
					if (current.needsRewrite()) {
						writing = true;
						FileRewrite.rewrite(this.session, current, lines);
						this.session.changes().publish(appended(lines, oldLeafId));
						return lines;
					}
					// Planning a large batch takes a while: whatever another process wrote meanwhile is taken in, and
					// the batch planned again after it, rather than appended after a line it may not have finished.
					// Only for a file that others write: one that only Arbor writes pays no extra look.
					overtaken = current.shared && this.session.openFile().size() != current.consumed;
					if (!overtaken) {
						writing = true;
						written = write(current, lines);
					}
				}
			}
			catch (FileRewrite.FileChangedException ex) {
				// another process appended while the file was rewritten: take its lines in and plan again
			}
			catch (IOException ex) {
				failedWrite();
				throw new StorageException("Could not write session " + this.session.sessionId(), ex);
			}
			catch (RuntimeException | Error ex) {
				if (writing) {
					failedWrite(); // past the first byte written, the tree may hold part of what the file holds
				}
				throw ex;
			}
			finally {
				this.session.writeLock().unlock();
			}
			if (written != null) {
				return written.awaitDurable();
			}
			if (overtaken) {
				continue;
			}
			if (System.nanoTime() - deadline > 0) {
				throw new SessionBusyException(this.session.path());
			}
			pause(); // someone's line is still being written: appending now would glue onto it
		}
	}

	/**
	 * Writes planned entries at the end of the file, where the file ended when checked just before. Under the write
	 * lock, with no unfinished line at the end.
	 *
	 * @return the lines and what must settle once they are durable, or {@code null} when another process's
	 * unfinished line got there first and the write was taken back (to be tried again once that line is done)
	 */
	private @Nullable Written write(LoadedTree current, List<EntryLine> lines) throws IOException {
		SessionFile target = this.session.openFile();
		ByteBuffer bytes = SessionContent.lines(lines);
		byte[] head = FileRegions.head(bytes);
		long start = current.consumed;
		target.append(bytes, start);
		String oldLeafId = current.tree.leafId();
		long end = start + bytes.limit();
		FileStamp now = FileStamp.read(this.session.path());
		// Append mode put the lines at the end: where the file ended before, unless another process wrote in between
		// (then the file is longer, and the lines are looked for).
		if ((now.size() == end && target.isAt(now)) || target.reads().holds(start, head)) {
			current.tree.append(lines);
			current.consumed = end;
			current.lineCount += lines.size();
			current.seen = new FileStamp(end, now.modified(), now.fileKey()); // what others appended since is read next
			target.reached(end, false);
			this.change = this.session.changes().enqueue(appended(lines, oldLeafId));
			return new Written(lines, target, end, this.change);
		}
		current.shared = true;
		AppendLanding.Landed landed = AppendLanding.find(target, current, lines, start);
		if (landed == null) {
			return null;
		}
		this.session.publishTakenIn(AppendLanding.takeBefore(current, landed, target.reads().name()), oldLeafId);
		String leafBefore = current.tree.leafId();
		current.tree.append(lines);
		this.change = this.session.changes().enqueue(appended(lines, leafBefore));
		String leafAfter = current.tree.leafId();
		this.session.publishTakenIn(AppendLanding.takeAfter(current, landed, target.reads().name()), leafAfter);
		target.reached(current.consumed, true);
		return new Written(lines, target, landed.end(), this.change);
	}

	/** Lines of this session's that reached the file; {@link #awaitDurable} waits for their fsync. */
	private final class Written {

		private final List<EntryLine> lines;

		private final SessionFile target;

		private final long end;

		private final ChangeFeed.Pending change;

		Written(List<EntryLine> lines, SessionFile target, long end, ChangeFeed.Pending change) {
			this.lines = lines;
			this.target = target;
			this.end = end;
			this.change = change;
		}

		List<EntryLine> awaitDurable() {
			try {
				this.target.syncTo(this.end);
			}
			catch (IOException ex) {
				SessionAppend.this.session.changes().dropped(this.change);
				SessionAppend.this.session.unloadAfterFailure(this.target);
				throw new StorageException(
						"Could not make session " + SessionAppend.this.session.sessionId() + " durable", ex);
			}
			SessionAppend.this.session.changes().durable(this.change);
			return this.lines;
		}

	}

	/**
	 * Under the write lock, after a write failed: the tree is read again from the file on next use, and this
	 * append's change, if queued, is dropped (what the file holds is then what the next reader sees).
	 */
	private void failedWrite() {
		this.session.distrustAfterFailedWrite();
		if (this.change != null) {
			this.session.changes().dropped(this.change);
		}
	}

	private SessionChange appended(List<EntryLine> lines, @Nullable String oldLeafId) {
		return new SessionChange.EntriesAppended(this.session.sessionId(), lines, oldLeafId, Origin.ARBOR);
	}

	private static void pause() {
		try {
			Thread.sleep(TAIL_WAIT_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new StorageException("Interrupted while waiting for another process to finish its line", null);
		}
	}

}

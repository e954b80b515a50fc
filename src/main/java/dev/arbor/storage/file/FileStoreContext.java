package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.function.Consumer;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionTooLargeException;
import dev.arbor.storage.StorageMetrics;
import org.jspecify.annotations.Nullable;

/**
 * What the sessions of one {@link FileSessionStore} share: how their files are opened, how long an unfinished last
 * line counts as someone's write in progress, who hears of their changes, and what the registry does when one loads,
 * moves or disappears.
 */
final class FileStoreContext {

	private static final System.Logger LOGGER = System.getLogger(FileSessionStore.class.getName());

	private final SessionFile.Opener opener;

	private final StorageBoundary boundary;

	private final InstantSource clock;

	private final Duration tornTailGrace;

	private final long maxSessionBytes;

	private final StorageMetrics metrics;

	private final SessionChangeListener listener;

	private final Consumer<StoredSession> afterGrowth;

	private final Whereabouts whereabouts;

	/** What the registry of sessions answers a session whose file is no longer where it was. */
	interface Whereabouts {

		/**
		 * Where a file of the session's id is now that no other session has: its own, which another process moved or
		 * renamed under the storage directory; {@code null} when there is none.
		 */
		@Nullable Path lookFor(StoredSession session);

		/** The session follows its file, from where it was to {@link StoredSession#path()}. */
		void moved(StoredSession session, Path from);

		/** Another process removed the session's file. */
		void removed(StoredSession session);

	}

	/**
	 * @param opener opens a file for writing, with the store's fsync policy
	 * @param boundary which paths under the storage directory may be opened
	 * @param clock the time of new entries and backups
	 * @param tornTailGrace how long a last line without its newline is someone's write in progress
	 * @param maxSessionBytes the largest a session may grow by Arbor's writes (a session is held in memory whole)
	 * @param listener told of each change, in order
	 * @param afterGrowth told after each load, and after a read that made the session keep more (its selector
	 * views), under the session's lock (the registry's eviction)
	 * @param whereabouts asked where a session's file went, and told when it moved or was removed
	 */
	FileStoreContext(SessionFile.Opener opener, StorageBoundary boundary, InstantSource clock, Duration tornTailGrace, long maxSessionBytes,
			StorageMetrics metrics, SessionChangeListener listener, Consumer<StoredSession> afterGrowth,
			Whereabouts whereabouts) {
		this.opener = opener;
		this.boundary = boundary;
		this.clock = clock;
		this.tornTailGrace = tornTailGrace;
		this.maxSessionBytes = maxSessionBytes;
		this.metrics = metrics;
		this.listener = listener;
		this.afterGrowth = afterGrowth;
		this.whereabouts = whereabouts;
	}

	SessionFile open(Path path) throws IOException {
		this.boundary.check(path);
		return this.opener.open(path);
	}

	/**
	 * Refuses a session's file that became a link the boundary does not follow: to the session it is a file that is
	 * gone.
	 *
	 * @throws java.nio.file.NoSuchFileException when it may not be opened
	 */
	void checkBoundary(Path path) throws IOException {
		this.boundary.check(path);
	}

	InstantSource clock() {
		return this.clock;
	}

	long graceMillis() {
		return this.tornTailGrace.toMillis();
	}

	/**
	 * Refuses lines that would make the session outgrow its memory, before they are written.
	 *
	 * @throws SessionTooLargeException when they would
	 */
	void checkRoom(String sessionId, long sessionBytes, List<EntryLine> lines) {
		long size = sessionBytes + SessionContent.length(lines);
		if (size > this.maxSessionBytes) {
			throw new SessionTooLargeException(sessionId, size, this.maxSessionBytes);
		}
	}

	/** The wall clock, which file times are in (not the store's clock, which tests may fix). */
	long nowMillis() {
		return System.currentTimeMillis();
	}

	SessionChangeListener listener() {
		return this.listener;
	}

	void afterGrowth(StoredSession session) {
		this.afterGrowth.accept(session);
	}

	@Nullable Path lookFor(StoredSession session) {
		return this.whereabouts.lookFor(session);
	}

	void moved(StoredSession session, Path from) {
		this.whereabouts.moved(session, from);
	}

	void removed(StoredSession session) {
		this.whereabouts.removed(session);
	}

	/** A session file's path as events name it (see {@link StorageBoundary#name}). */
	String name(Path path) {
		return this.boundary.name(path);
	}

	void takenIn(int entries) {
		this.metrics.takenIn(entries);
	}

	void reloaded() {
		this.metrics.reloaded();
	}

	void log(System.Logger.Level level, String message, @Nullable Throwable cause) {
		LOGGER.log(level, message, cause);
	}

}

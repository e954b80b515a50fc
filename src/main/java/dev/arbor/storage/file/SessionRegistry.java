package dev.arbor.storage.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.arbor.storage.InvalidSessionFileException;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.UnreadableSession;
import org.jspecify.annotations.Nullable;

/**
 * The sessions under one storage directory, by id and by file. It finds files that other tools added (a rescan, at
 * most one a second for an id it does not know, and for a listing unless the folder watch is healthy), takes in what
 * the watch and the poll report (files that changed, appeared or went), and unloads the least recently used idle
 * sessions while the loaded ones exceed the cache budget (watched ones never; everything acknowledged is on disk, so
 * nothing is lost). It counts every change a listing shows ({@link #version}): a session added or gone, a file found
 * unreadable or readable again, and each session's changes as the store announces them.
 */
final class SessionRegistry implements FileStoreContext.Whereabouts {

	private static final long RESCAN_INTERVAL_NANOS = 1_000_000_000L;

	/**
	 * How close to a walk a folder's time may be for a change right after the walk to have left it as it was:
	 * file systems stamp times with a clock that moves in ticks of a few milliseconds.
	 */
	private static final long RACY_MILLIS = 100;

	private final Path root;

	private final StorageBoundary boundary;

	private static final System.Logger LOGGER = System.getLogger(FileSessionStore.class.getName());

	private final long cacheBudgetBytes;

	private final BiFunction<String, Path, StoredSession> sessionOf;

	private final Consumer<SessionChange> announce;

	private final Map<String, StoredSession> sessions = new ConcurrentHashMap<>();

	private final Map<Path, StoredSession> byPath = new ConcurrentHashMap<>();

	/** Files the store is creating: not yet registered, and not someone else's new session. */
	private final Set<Path> creating = ConcurrentHashMap.newKeySet();

	private volatile List<UnreadableSession> unreadable = List.of();

	/** Bumped by every change a listing shows; a listing taken at the same version is still right. */
	private final AtomicLong version = new AtomicLong();

	/**
	 * Whether the folder watch runs and has seen every folder: then what it reports is all that changes, and a
	 * listing needs no walk of its own (docs/STORAGE.md#how-a-listing-stays-current).
	 */
	private volatile boolean watched;

	/** Something the watch saw that only a walk can sort out (lost events, a file that is not a session). */
	private volatile boolean rescanWanted;

	/**
	 * The folders the last walk saw, with their modification times: one that differs now had a file created, removed
	 * or renamed in it, which a listing must show even before the watch reports it.
	 */
	private volatile Map<Path, FileTime> folders = Map.of();

	/** When the last walk began, by the wall clock. */
	private volatile long walkedAt;

	/** When a lookup of an unknown id last walked the directory; bounds what a stream of bad ids costs. */
	private final AtomicLong lastRescan = new AtomicLong(System.nanoTime() - RESCAN_INTERVAL_NANOS);

	/**
	 * @param boundary the storage directory, and which paths under it may be opened
	 * @param cacheBudgetBytes loaded file bytes beyond which idle sessions are unloaded
	 * @param sessionOf makes the session of a file
	 * @param announce told of the sessions that other processes added
	 */
	SessionRegistry(StorageBoundary boundary, long cacheBudgetBytes, BiFunction<String, Path, StoredSession> sessionOf,
			Consumer<SessionChange> announce) {
		this.root = boundary.root();
		this.boundary = boundary;
		this.cacheBudgetBytes = cacheBudgetBytes;
		this.sessionOf = sessionOf;
		this.announce = announce;
	}

	Path root() {
		return this.root;
	}

	/**
	 * The session of an id; an id not known yet is looked for on disk first, at most once a second.
	 *
	 * @throws SessionNotFoundException when there is none
	 */
	StoredSession require(String sessionId) {
		StoredSession session = this.sessions.get(sessionId);
		if (session == null && rescanAllowed()) {
			rescan();
			session = this.sessions.get(sessionId);
		}
		if (session == null) {
			throw new SessionNotFoundException(sessionId);
		}
		return session;
	}

	/** The session of an id as far as known now, without looking on disk. */
	@Nullable StoredSession find(String sessionId) {
		return this.sessions.get(sessionId);
	}

	Collection<StoredSession> sessions() {
		return this.sessions.values();
	}

	/** The count of changes a listing shows, so far. */
	long version() {
		return this.version.get();
	}

	/** A change a listing shows: told by the store of every session change it announces. */
	void changed() {
		this.version.incrementAndGet();
	}

	/**
	 * Whether the watch reports every change, so that a listing may trust the sessions known and their summaries:
	 * set by the watch once it watches every folder, cleared when it stops or a folder could not be watched.
	 */
	void watched(boolean healthy) {
		this.watched = healthy;
		rescanWanted(); // what changed before the watch began, or since it stopped, is for a walk to find
	}

	/** The next listing walks the directory: the watch saw something it cannot take in itself. */
	void rescanWanted() {
		this.rescanWanted = true;
		changed();
	}

	/**
	 * Before a listing: walks the directory unless the watch is healthy and reported everything itself
	 * (docs/STORAGE.md#how-a-listing-stays-current).
	 *
	 * @return whether it walked: then the listing looks at every session's file too, as the watch may have missed
	 * changes to them
	 */
	boolean maybeRescanForListing() {
		if (!this.watched || this.rescanWanted || foldersChanged()) {
			this.rescanWanted = false; // before the walk: what the watch reports during it asks for another
			rescan();
			return true;
		}
		return false;
	}

	/** Files that are not usable sessions, with the reason, as of the last rescan. */
	List<UnreadableSession> unreadable() {
		return this.unreadable;
	}

	/**
	 * Finds files added by others; sessions already known keep their state, and their files are not
	 * even opened (that would release their OS locks, see {@link SessionDirectory#scan}).
	 */
	synchronized void rescan() {
		Map<Path, String> known = new HashMap<>();
		this.sessions.values().forEach(session -> known.put(session.path(), session.sessionId()));
		SessionDirectory.Scan scan;
		long started = System.currentTimeMillis();
		try {
			scan = SessionDirectory.scan(this.boundary, known, this.creating);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot scan the storage directory " + this.root, ex);
		}
		this.walkedAt = started;
		this.folders = Map.copyOf(scan.folders());
		scan.sessions().forEach((id, file) -> this.sessions.computeIfAbsent(id, key -> {
			changed();
			return register(key, file);
		}));
		List<UnreadableSession> before = this.unreadable;
		this.unreadable = List.copyOf(scan.unreadable());
		if (!this.unreadable.equals(before)) {
			changed();
		}
		this.unreadable.stream().filter(file -> !before.contains(file)).forEach(SessionRegistry::logUnreadable);
	}

	/**
	 * Whether a folder the last walk saw changed since (a {@code stat} of each: a few dozen in pi's layout, one per
	 * working directory), or its time was too close to the walk to tell a later change from it: the file system's
	 * clock may not have moved on between the two.
	 */
	private boolean foldersChanged() {
		long racy = this.walkedAt - RACY_MILLIS;
		for (Map.Entry<Path, FileTime> folder : this.folders.entrySet()) {
			try {
				FileTime now = Files.getLastModifiedTime(folder.getKey());
				if (!now.equals(folder.getValue()) || now.toMillis() >= racy) {
					return true;
				}
			}
			catch (IOException ex) {
				return true; // gone or unreadable: for the walk to report
			}
		}
		return false;
	}

	/** Once per file and reason: the listing names it on every page, an operator reads the log. */
	private static void logUnreadable(UnreadableSession file) {
		String what = Files.isDirectory(file.file(), LinkOption.NOFOLLOW_LINKS) ? "Folder " : "Session file ";
		LOGGER.log(System.Logger.Level.WARNING, what + file.name() + " is not served: " + file.reason());
	}

	/** Marks a file the store is about to create, so that nobody takes it for another process's new session. */
	void creating(Path file) {
		this.creating.add(file);
	}

	/** The file is created, and registered if it was (see {@link #add}). */
	void created(Path file) {
		this.creating.remove(file);
	}

	/** Registers a session file the store created. */
	StoredSession add(String sessionId, Path file) {
		StoredSession session = register(sessionId, file);
		this.sessions.put(sessionId, session);
		changed();
		return session;
	}

	/** Drops a session whose file is gone. */
	void forget(StoredSession session) {
		if (this.sessions.remove(session.sessionId(), session)) {
			changed();
		}
		this.byPath.remove(session.path(), session);
	}

	@Override
	public void removed(StoredSession session) {
		forget(session);
	}

	/**
	 * A walk like {@link #rescan}'s, which opens only files no session has; it takes no lock of the registry's, since
	 * the session that asks holds its own (and {@link #maybeAdd} takes them in the other order).
	 */
	@Override
	public @Nullable Path lookFor(StoredSession session) {
		Map<Path, String> known = new HashMap<>();
		this.sessions.values().forEach(each -> known.put(each.path(), each.sessionId()));
		Path found;
		try {
			found = SessionDirectory.scan(this.boundary, known, this.creating).sessions().get(session.sessionId());
		}
		catch (IOException | UncheckedIOException ex) {
			return null; // no storage directory to look in: the file is as good as removed
		}
		return (found != null && !this.byPath.containsKey(found)) ? found : null;
	}

	@Override
	public void moved(StoredSession session, Path from) {
		this.byPath.remove(from, session);
		this.byPath.put(session.path(), session);
	}

	/**
	 * A file under the directory may have changed, appeared or gone: told by the watch and the poll. A session's
	 * file is taken in (when the session is loaded or watched); a new session file is registered and announced.
	 */
	void fileChanged(Path file) {
		StoredSession session = this.byPath.get(file);
		if (session != null) {
			session.refreshIfChanged();
		}
		else if (StorageFiles.isSessionFile(file) && !maybeAdd(file) && !this.creating.contains(file)
				&& (Files.exists(file, LinkOption.NOFOLLOW_LINKS) || listsUnreadable(file))) {
			rescanWanted(); // not a session (yet), a link, or a file listed as unreadable gone: for a walk to say
		}
	}

	/** A directory's entries may have changed: new session files are added, and sessions whose file is gone removed. */
	void directoryChanged(Path directory) {
		try (Stream<Path> files = Files.list(directory)) {
			files.filter(StorageFiles::isSessionFile).filter(file -> !this.byPath.containsKey(file)).forEach(this::maybeAdd);
		}
		catch (IOException ex) {
			// gone, or unreadable: its sessions are checked below, and the next listing reports it
			rescanWanted();
		}
		if (listsUnreadable(directory)) {
			rescanWanted(); // a file listed as unreadable in it may be gone or readable now
		}
		for (StoredSession session : List.copyOf(this.byPath.values())) {
			if (directory.equals(session.path().getParent())) {
				session.checkRemoved();
			}
		}
	}

	/** Whether the last walk listed the file, or something under the folder, as unreadable. */
	private boolean listsUnreadable(Path fileOrFolder) {
		return this.unreadable.stream().anyMatch(each -> each.file().startsWith(fileOrFolder));
	}

	/**
	 * Looks at every loaded session's file (one {@code stat} each) and takes in what changed: for file systems that
	 * send no change events (NFS, some container bind mounts), and for unfinished lines whose grace period ended.
	 */
	void pollLoaded() {
		for (StoredSession session : this.sessions.values()) {
			session.refreshIfChanged();
		}
	}

	/** Sessions currently held in memory. */
	int loadedSessions() {
		return (int) this.sessions.values().stream().filter(session -> session.loadedBytes() > 0).count();
	}

	/**
	 * Runs after a session was loaded (under its lock): unloads least recently used idle sessions while
	 * the loaded ones exceed the budget. Never blocks on another session's lock.
	 */
	void evictIfNeeded(StoredSession justUsed) {
		long loaded = 0;
		for (StoredSession session : this.sessions.values()) {
			loaded += session.loadedBytes();
		}
		if (loaded <= this.cacheBudgetBytes) {
			return;
		}
		List<StoredSession> candidates = new ArrayList<>(this.sessions.values());
		candidates.sort(Comparator.comparingLong(StoredSession::lastUsed));
		for (StoredSession candidate : candidates) {
			if (loaded <= this.cacheBudgetBytes) {
				return;
			}
			long bytes = candidate.loadedBytes();
			if (candidate != justUsed && bytes > 0 && candidate.tryUnload()) {
				loaded -= bytes;
			}
		}
	}

	/**
	 * Registers a session file that another process created, and announces it. A file whose header is not there yet
	 * (being written) is left for its next change; one whose id is taken is the file of that session moved here, or
	 * else left for the listing to report.
	 */
	private synchronized boolean maybeAdd(Path file) {
		if (this.byPath.containsKey(file)) {
			return true;
		}
		if (this.creating.contains(file) || this.boundary.refusal(file) != null || !Files.isRegularFile(file)) {
			return false; // a link the boundary refuses is for the listing to report
		}
		String id;
		try {
			id = SessionDirectory.readSessionId(file);
		}
		catch (IOException | InvalidSessionFileException ex) {
			return false;
		}
		StoredSession known = this.sessions.get(id);
		if (known != null) {
			// The session's own file, moved here by another process, when it is gone from where it was: followed then
			known.checkRemoved();
			return this.byPath.containsKey(file);
		}
		StoredSession session = add(id, file);
		try {
			this.announce.accept(new SessionChange.SessionCreated(session.info(), SessionChange.Origin.EXTERNAL));
		}
		catch (RuntimeException ex) {
			// removed or unreadable again already: its next change or the listing says so
		}
		return true;
	}

	private boolean rescanAllowed() {
		long last = this.lastRescan.get();
		long now = System.nanoTime();
		return now - last >= RESCAN_INTERVAL_NANOS && this.lastRescan.compareAndSet(last, now);
	}

	private StoredSession register(String sessionId, Path file) {
		StoredSession session = this.sessionOf.apply(sessionId, file);
		this.byPath.put(file, session);
		return session;
	}

}

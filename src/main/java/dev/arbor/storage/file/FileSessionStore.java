package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Ids;
import dev.arbor.session.NewSession;
import dev.arbor.session.SessionCopies;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionIds;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.InvalidSessionFileException;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionExistsException;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.SessionWatch;
import dev.arbor.storage.StorageException;
import dev.arbor.storage.StorageMetrics;
import dev.arbor.storage.UnreadableSession;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The registry of session files under one root directory, and the {@link SessionStore} over them.
 * Sessions load on demand and stay loaded while the loaded files fit the cache budget; the least
 * recently used idle ones are unloaded beyond it (everything acknowledged is on disk, so nothing is
 * lost), watched ones never. An id this registry does not know triggers a rescan (at most one a
 * second), so files added by other tools are found; {@link SessionFolderWatch} and
 * {@link SessionFolderPoll} tell it of files that other processes add, change and remove, as soon as
 * they can.
 */
public final class FileSessionStore implements SessionStore, Closeable {

	private static final long RESCAN_INTERVAL_NANOS = 1_000_000_000L;

	/** How long a last line without its newline counts as someone's write in progress, unless told otherwise. */
	public static final Duration DEFAULT_TORN_TAIL_GRACE = Duration.ofSeconds(3);

	private static final System.Logger LOGGER = System.getLogger(FileSessionStore.class.getName());

	private final Path root;

	private final FsyncPolicy fsync;

	private final long cacheBudgetBytes;

	private final InstantSource clock;

	private final StorageMetrics metrics;

	private final FileStoreContext context;

	private final Map<String, StoredSession> sessions = new ConcurrentHashMap<>();

	private final Map<Path, StoredSession> byPath = new ConcurrentHashMap<>();

	/** Files this store is creating: not yet registered, and not someone else's new session. */
	private final Set<Path> creating = ConcurrentHashMap.newKeySet();

	private volatile List<UnreadableSession> unreadable = List.of();

	private final List<SessionChangeListener> listeners = new CopyOnWriteArrayList<>();

	/** When a lookup of an unknown id last walked the directory; bounds what a stream of bad ids costs. */
	private final AtomicLong lastRescan = new AtomicLong(System.nanoTime() - RESCAN_INTERVAL_NANOS);

	/**
	 * @param root the storage directory, created if missing
	 * @param fsync when appends reach the disk
	 * @param cacheBudgetBytes loaded file bytes beyond which idle sessions are unloaded
	 * @param clock the time of new entries and sessions
	 */
	public FileSessionStore(Path root, FsyncPolicy fsync, long cacheBudgetBytes, InstantSource clock) {
		this(root, fsync, cacheBudgetBytes, clock, StorageMetrics.NONE);
	}

	/**
	 * @param root the storage directory, created if missing
	 * @param fsync when appends reach the disk
	 * @param cacheBudgetBytes loaded file bytes beyond which idle sessions are unloaded
	 * @param clock the time of new entries and sessions
	 * @param metrics told of appends and fsyncs
	 */
	public FileSessionStore(Path root, FsyncPolicy fsync, long cacheBudgetBytes, InstantSource clock,
			StorageMetrics metrics) {
		this(root, fsync, cacheBudgetBytes, clock, metrics, DEFAULT_TORN_TAIL_GRACE);
	}

	/**
	 * @param root the storage directory, created if missing
	 * @param fsync when appends reach the disk
	 * @param cacheBudgetBytes loaded file bytes beyond which idle sessions are unloaded
	 * @param clock the time of new entries and sessions
	 * @param metrics told of appends and fsyncs
	 * @param tornTailGrace how long a last line without its newline is someone's write in progress; one that stays
	 * so longer is a crash remnant (SESSION-TREE.md §9)
	 */
	public FileSessionStore(Path root, FsyncPolicy fsync, long cacheBudgetBytes, InstantSource clock,
			StorageMetrics metrics, Duration tornTailGrace) {
		this.root = root.toAbsolutePath().normalize();
		this.fsync = fsync;
		this.cacheBudgetBytes = cacheBudgetBytes;
		this.clock = clock;
		this.metrics = metrics;
		this.context = new FileStoreContext(this::openFile, clock, tornTailGrace, metrics, this::tellListeners,
				this::evictIfNeeded, this::forget);
		try {
			Files.createDirectories(this.root);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create the storage directory " + this.root, ex);
		}
		rescan();
	}

	public Path root() {
		return this.root;
	}

	@Override
	public void addChangeListener(SessionChangeListener listener) {
		this.listeners.add(listener);
	}

	/** One listener that fails must not keep the others from hearing, nor fail the write that was made. */
	private void tellListeners(SessionChange change) {
		for (SessionChangeListener listener : this.listeners) {
			try {
				listener.onChange(change);
			}
			catch (RuntimeException ex) {
				LOGGER.log(System.Logger.Level.WARNING, "A session change listener failed on "
						+ change.getClass().getSimpleName() + " of session " + change.sessionId(), ex);
			}
		}
	}

	@Override
	public SessionInfo create(@Nullable String cwd, @Nullable String title, @Nullable String parentSession) {
		Instant now = this.clock.instant();
		String id = SessionIds.newId(now);
		return write(new NewSession(SessionHeader.create(id, now, cwd, title, parentSession), List.of(), null), now);
	}

	/**
	 * Stores an uploaded session file under the id in its header, migrated to version 3 and written whole, so that
	 * the file on disk is what an export of it gives. Synchronized: two uploads of one id must not both pass the
	 * check; a rescan first finds a file of that id that another tool added.
	 */
	@Override
	public synchronized SessionInfo importSession(byte[] content, boolean skipMalformedLines) {
		LoadedSession session = SessionFileReader.read(FileLines.split(content), "the uploaded file");
		if (!session.malformedLines().isEmpty() && !skipMalformedLines) {
			throw new InvalidSessionFileException("the uploaded file", session.malformedLines());
		}
		SessionTree tree = session.tree();
		if (!Ids.isValid(tree.sessionId())) {
			throw new InvalidSessionFileException("the uploaded file", "its session id is not of the form " + Ids.PATTERN);
		}
		rescan();
		StoredSession existing = this.sessions.get(tree.sessionId());
		if (existing != null && Files.exists(existing.path())) {
			throw new SessionExistsException(tree.sessionId());
		}
		if (existing != null) {
			forget(existing); // its file was removed by another tool
		}
		NewSession imported = new NewSession(tree.header(), tree.titleSlot(), tree.getEntries(), tree.leafId());
		return write(imported, this.clock.instant());
	}

	/**
	 * Every readable session. The directory is scanned again first, for files others added: a walk that opens only
	 * files it does not know yet, cheap next to the listing itself.
	 */
	@Override
	public List<SessionInfo> list() {
		rescan();
		List<SessionInfo> result = new ArrayList<>();
		for (StoredSession session : this.sessions.values()) {
			try {
				result.add(session.info());
			}
			catch (SessionNotFoundException ex) {
				// deleted while listing
			}
		}
		result.sort(Comparator.comparing(SessionInfo::id).reversed());
		return result;
	}

	@Override
	public List<UnreadableSession> unreadable() {
		return this.unreadable;
	}

	@Override
	public SessionInfo get(String sessionId) {
		return session(sessionId).info();
	}

	@Override
	public <T> T read(String sessionId, Function<SessionTree, T> reader) {
		return session(sessionId).read(reader);
	}

	@Override
	public List<EntryLine> append(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts) {
		return timedAppend(sessionId, expected, tree -> tree.prepareAppend(drafts, this.clock.instant()));
	}

	@Override
	public EntryLine appendBranchSummary(String sessionId, ExpectedLeaf expected, @Nullable String fromId,
			String summary, @Nullable JsonNode details, @Nullable Boolean fromExtension) {
		return timedAppend(sessionId, expected, tree -> List
			.of(tree.prepareBranchSummary(fromId, summary, details, fromExtension, this.clock.instant())))
			.get(0);
	}

	private List<EntryLine> timedAppend(String sessionId, ExpectedLeaf expected,
			Function<SessionTree, List<EntryLine>> planner) {
		long start = System.nanoTime();
		List<EntryLine> lines = session(sessionId).append(expected, planner);
		this.metrics.appended(lines.size(), System.nanoTime() - start);
		return lines;
	}

	@Override
	public @Nullable String moveLeaf(String sessionId, ExpectedLeaf expected, @Nullable String entryId) {
		return session(sessionId).moveLeaf(expected, entryId);
	}

	@Override
	public SessionInfo createBranchedSession(String sessionId, String leafId) {
		Instant now = this.clock.instant();
		String newId = SessionIds.newId(now);
		NewSession copy = read(sessionId, tree -> SessionCopies.createBranchedSession(tree, leafId, newId, now));
		return write(copy, now);
	}

	@Override
	public SessionInfo fork(String sessionId) {
		Instant now = this.clock.instant();
		String newId = SessionIds.newId(now);
		NewSession copy = read(sessionId, tree -> SessionCopies.fork(tree, newId, now));
		return write(copy, now);
	}

	@Override
	public void delete(String sessionId, ExpectedLeaf expected) {
		StoredSession session = session(sessionId);
		try {
			session.delete(expected);
		}
		catch (IOException ex) {
			throw new StorageException("Could not delete session " + sessionId, ex);
		}
		finally {
			if (session.isDeleted()) {
				forget(session);
			}
		}
	}

	/** Keeps the session loaded, and taking in what other processes append to its file, until the handle is closed. */
	@Override
	public SessionWatch watch(String sessionId) {
		return session(sessionId).watch();
	}

	/** Sessions currently held in memory. */
	public int loadedSessions() {
		return (int) this.sessions.values().stream().filter(session -> session.loadedBytes() > 0).count();
	}

	/** Unloads every session and releases every file lock. */
	@Override
	public void close() {
		this.sessions.values().forEach(StoredSession::close);
	}

	/**
	 * Finds files added by others; sessions already known keep their state, and their files are not
	 * even opened (that would release their OS locks, see {@link SessionDirectory#scan}).
	 */
	public synchronized void rescan() {
		Map<Path, String> known = new HashMap<>();
		this.sessions.values().forEach(session -> known.put(session.path(), session.sessionId()));
		SessionDirectory.Scan scan;
		try {
			scan = SessionDirectory.scan(this.root, known, this.creating);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot scan the storage directory " + this.root, ex);
		}
		scan.sessions().forEach((id, file) -> this.sessions.computeIfAbsent(id, key -> register(key, file)));
		this.unreadable = List.copyOf(scan.unreadable());
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
		else if (StorageFiles.isSessionFile(file)) {
			maybeAdd(file);
		}
	}

	/** A directory's entries may have changed: new session files are added, and sessions whose file is gone removed. */
	void directoryChanged(Path directory) {
		try (Stream<Path> files = Files.list(directory)) {
			files.filter(StorageFiles::isSessionFile).filter(file -> !this.byPath.containsKey(file)).forEach(this::maybeAdd);
		}
		catch (IOException ex) {
			// gone, or unreadable: its sessions are checked below, and the next listing reports it
		}
		for (StoredSession session : List.copyOf(this.byPath.values())) {
			if (directory.equals(session.path().getParent())) {
				session.checkRemoved();
			}
		}
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

	/** Every session file known, by its path: what the poll and the watch compare the directory with. */
	Set<Path> knownFiles() {
		return this.byPath.keySet();
	}

	/**
	 * Registers a session file that another process created, and announces it. A file whose header is not there yet
	 * (being written) is left for its next change; one whose id is taken is left for the listing to report.
	 */
	private synchronized void maybeAdd(Path file) {
		if (this.byPath.containsKey(file) || this.creating.contains(file) || !Files.isRegularFile(file)) {
			return;
		}
		String id;
		try {
			id = SessionDirectory.readSessionId(file);
		}
		catch (IOException | InvalidSessionFileException ex) {
			return;
		}
		if (this.sessions.containsKey(id)) {
			return;
		}
		StoredSession session = register(id, file);
		this.sessions.put(id, session);
		try {
			tellListeners(new SessionChange.SessionCreated(session.info(), SessionChange.Origin.EXTERNAL));
		}
		catch (RuntimeException ex) {
			// removed or unreadable again already: its next change or the listing says so
		}
	}

	private boolean rescanAllowed() {
		long last = this.lastRescan.get();
		long now = System.nanoTime();
		return now - last >= RESCAN_INTERVAL_NANOS && this.lastRescan.compareAndSet(last, now);
	}

	private StoredSession session(String sessionId) {
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

	/** A new session file, complete before it is registered: its leaf is persisted when it is not the last entry. */
	private SessionInfo write(NewSession content, Instant now) {
		String id = content.header().id();
		Path file = StorageFiles.newSessionFile(this.root, id, now);
		this.creating.add(file);
		try {
			try {
				AtomicFiles.replace(file, SessionContent.of(content.lines()));
				String last = content.entries().isEmpty() ? null : content.entries().get(content.entries().size() - 1).id();
				if (!Objects.equals(content.leafId(), last)) {
					LeafSidecar.write(file, content.leafId(), Files.size(file));
				}
			}
			catch (IOException ex) {
				throw new StorageException("Could not create session " + id, ex);
			}
			StoredSession session = register(id, file);
			this.sessions.put(id, session);
			SessionInfo info = session.info();
			tellListeners(new SessionChange.SessionCreated(info, SessionChange.Origin.ARBOR));
			return info;
		}
		finally {
			this.creating.remove(file);
		}
	}

	private StoredSession register(String id, Path file) {
		StoredSession session = new StoredSession(id, file, this.context);
		this.byPath.put(file, session);
		return session;
	}

	/** Drops a session whose file is gone from the registry. */
	private void forget(StoredSession session) {
		this.sessions.remove(session.sessionId(), session);
		this.byPath.remove(session.path(), session);
	}

	private SessionFile openFile(Path file) throws IOException {
		return SessionFile.open(file, this.fsync, channel -> {
			long start = System.nanoTime();
			channel.force(false); // fdatasync: the data and the new length, all a reader needs
			this.metrics.synced(System.nanoTime() - start);
		});
	}

	/**
	 * Runs after a session was loaded (under its lock): unloads least recently used idle sessions while
	 * the loaded ones exceed the budget. Never blocks on another session's lock.
	 */
	private void evictIfNeeded(StoredSession justUsed) {
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

}

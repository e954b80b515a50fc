package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Ids;
import dev.arbor.session.NewSession;
import dev.arbor.session.SessionCopies;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionIds;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.AppendPlans;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.IdempotencyKey;
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
 * The {@link SessionStore} over the session files under one root directory: the embedded default. The sessions are
 * kept in a {@link SessionRegistry}, which loads them on demand and unloads idle ones beyond the cache budget;
 * {@link SessionFolderWatch} and {@link SessionFolderPoll} tell it of files that other processes add, change and
 * remove, as soon as they can.
 */
public final class FileSessionStore implements SessionStore, Closeable {

	/** How long a last line without its newline counts as someone's write in progress, unless told otherwise. */
	public static final Duration DEFAULT_TORN_TAIL_GRACE = Duration.ofSeconds(3);

	private static final System.Logger LOGGER = System.getLogger(FileSessionStore.class.getName());

	/** The longest name a folder may have: Linux's {@code NAME_MAX}, in bytes. */
	private static final int MAX_NAME_BYTES = 255;

	private final Path root;

	private final StorageBoundary boundary;

	private final FsyncPolicy fsync;

	private final InstantSource clock;

	private final StorageMetrics metrics;

	private final FileStoreContext context;

	private final SessionRegistry registry;

	private final List<SessionChangeListener> listeners = new CopyOnWriteArrayList<>();

	/** The last listing; replaced whole, so a reader sees one taken at one version. */
	private volatile @Nullable Listing listing;

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
	 * so longer is a crash remnant (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions)
	 */
	public FileSessionStore(Path root, FsyncPolicy fsync, long cacheBudgetBytes, InstantSource clock,
			StorageMetrics metrics, Duration tornTailGrace) {
		this(root, fsync, cacheBudgetBytes, Long.MAX_VALUE, clock, metrics, tornTailGrace);
	}

	/**
	 * @param root the storage directory, created if missing
	 * @param fsync when appends reach the disk
	 * @param cacheBudgetBytes loaded file bytes beyond which idle sessions are unloaded
	 * @param maxSessionBytes the most a session may grow to by Arbor's writes (it is held in memory whole)
	 * @param clock the time of new entries and sessions
	 * @param metrics told of appends and fsyncs
	 * @param tornTailGrace how long a last line without its newline is someone's write in progress; one that stays
	 * so longer is a crash remnant (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions)
	 */
	public FileSessionStore(Path root, FsyncPolicy fsync, long cacheBudgetBytes, long maxSessionBytes,
			InstantSource clock, StorageMetrics metrics, Duration tornTailGrace) {
		this(root, fsync, cacheBudgetBytes, maxSessionBytes, clock, metrics, tornTailGrace, false);
	}

	/**
	 * @param root the storage directory, created if missing
	 * @param fsync when appends reach the disk
	 * @param cacheBudgetBytes loaded file bytes beyond which idle sessions are unloaded
	 * @param maxSessionBytes the most a session may grow to by Arbor's writes (it is held in memory whole)
	 * @param clock the time of new entries and sessions
	 * @param metrics told of appends and fsyncs
	 * @param tornTailGrace how long a last line without its newline is someone's write in progress; one that stays
	 * so longer is a crash remnant
	 * @param followLinks whether symbolic links under the root that stay inside it are followed; links that lead out
	 * of it never are ({@link StorageBoundary})
	 */
	public FileSessionStore(Path root, FsyncPolicy fsync, long cacheBudgetBytes, long maxSessionBytes,
			InstantSource clock, StorageMetrics metrics, Duration tornTailGrace, boolean followLinks) {
		this.root = root.toAbsolutePath().normalize();
		this.fsync = fsync;
		this.clock = clock;
		this.metrics = metrics;
		StorageBoundary boundary;
		try {
			Files.createDirectories(this.root);
			boundary = new StorageBoundary(this.root, followLinks);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create the storage directory " + this.root, ex);
		}
		this.boundary = boundary;
		this.registry = new SessionRegistry(boundary, cacheBudgetBytes, this::newSession, this::tellListeners);
		this.context = new FileStoreContext(this::openFile, boundary, clock, tornTailGrace, maxSessionBytes, metrics,
				this::tellListeners, this.registry::evictIfNeeded, this.registry);
		this.registry.rescan();
	}

	public Path root() {
		return this.root;
	}

	@Override
	public void addChangeListener(SessionChangeListener listener) {
		this.listeners.add(listener);
	}

	/** One listener that fails must not keep the others from hearing, nor fail the write that was made. */
	private static void undelivered(SessionChangeListener listener, SessionChange change) {
		try {
			listener.onUndelivered(change);
		}
		catch (RuntimeException | OutOfMemoryError ex) {
			LOGGER.log(System.Logger.Level.WARNING, "A session change listener failed to note a lost change of session "
					+ change.sessionId(), ex);
		}
	}

	private void tellListeners(SessionChange change) {
		this.registry.changed(); // the listing shows the change from now on
		for (SessionChangeListener listener : this.listeners) {
			try {
				listener.onChange(change);
			}
			catch (RuntimeException | OutOfMemoryError ex) {
				// The change is durable: its writer gets its answer whatever a listener makes of it.
				LOGGER.log(System.Logger.Level.WARNING, "A session change listener failed on "
						+ change.getClass().getSimpleName() + " of session " + change.sessionId(), ex);
				undelivered(listener, change);
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
	 * Stores an uploaded session file under the id in its header (or a fresh one), migrated to version 3 and written
	 * whole, so that the file on disk is what an export of it gives. Synchronized: two uploads of one id must not
	 * both pass the check; a rescan first finds a file of that id that another tool added.
	 */
	@Override
	public synchronized SessionInfo importSession(byte[] content, boolean skipMalformedLines, boolean newId) {
		LoadedSession session = SessionFileReader.read(FileLines.split(content), "the uploaded file");
		if (!session.malformedLines().isEmpty() && !skipMalformedLines) {
			throw new InvalidSessionFileException("the uploaded file", session.malformedLines());
		}
		SessionTree tree = session.tree();
		Instant now = this.clock.instant();
		SessionHeader header = newId ? tree.header().withId(SessionIds.newId(now)) : tree.header();
		if (!Ids.isValid(header.id())) {
			throw new InvalidSessionFileException("the uploaded file", "its session id is not of the form " + Ids.PATTERN);
		}
		this.registry.rescan();
		StoredSession existing = this.registry.find(header.id());
		if (existing != null && Files.exists(existing.path())) {
			throw new SessionExistsException(header.id());
		}
		if (existing != null) {
			this.registry.forget(existing); // its file was removed by another tool
		}
		NewSession imported = new NewSession(header, tree.titleSlot(), tree.getEntries(), tree.leafId());
		return write(imported, now);
	}

	/**
	 * Every readable session, newest id first. Where the folder watch is healthy, it has told the registry of every
	 * file added, changed or removed, and the listing is taken from the summaries without a look at the disk; the
	 * same list as before while nothing changed. Otherwise the directory is walked first and every session's file
	 * looked at (docs/STORAGE.md#how-a-listing-stays-current).
	 */
	@Override
	public List<SessionInfo> list() {
		boolean trusted = !this.registry.maybeRescanForListing();
		long version = this.registry.version();
		Listing before = this.listing;
		if (trusted && before != null && before.version() == version) {
			return before.sessions();
		}
		List<SessionInfo> result = new ArrayList<>();
		for (StoredSession session : this.registry.sessions()) {
			try {
				result.add(trusted ? session.listed() : session.info());
			}
			catch (SessionNotFoundException ex) {
				// deleted while listing
			}
		}
		result.sort(Comparator.comparing(SessionInfo::id).reversed());
		List<SessionInfo> sessions = (before != null && sameSessions(before.sessions(), result)) ? before.sessions()
				: List.copyOf(result);
		this.listing = new Listing(version, sessions);
		return sessions;
	}

	/** The same summaries in the same order: the list handed out before may be handed out again. */
	private static boolean sameSessions(List<SessionInfo> before, List<SessionInfo> now) {
		if (before.size() != now.size()) {
			return false;
		}
		for (int i = 0; i < now.size(); i++) {
			if (before.get(i) != now.get(i)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The last listing handed out and the registry's version it was taken at.
	 *
	 * @param version the registry's count of changes then
	 * @param sessions the listing, unmodifiable
	 */
	private record Listing(long version, List<SessionInfo> sessions) {
	}

	@Override
	public List<UnreadableSession> unreadable() {
		return this.registry.unreadable();
	}

	@Override
	public SessionInfo get(String sessionId) {
		return this.registry.require(sessionId).info();
	}

	@Override
	public <T> T read(String sessionId, Function<SessionTree, T> reader) {
		return this.registry.require(sessionId).read(reader);
	}

	@Override
	public List<EntryLine> append(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts,
			@Nullable IdempotencyKey key) {
		return timedAppend(sessionId, expected, AppendPlans.entries(sessionId, drafts, key, this.clock));
	}

	@Override
	public EntryLine appendBranchSummary(String sessionId, ExpectedLeaf expected, @Nullable String fromId,
			String summary, @Nullable JsonNode details, @Nullable Boolean fromExtension) {
		return timedAppend(sessionId, expected,
				AppendPlans.branchSummary(fromId, summary, details, fromExtension, this.clock))
			.get(0);
	}

	private List<EntryLine> timedAppend(String sessionId, ExpectedLeaf expected,
			Function<SessionTree, List<EntryLine>> planner) {
		long start = System.nanoTime();
		List<EntryLine> lines = this.registry.require(sessionId).append(expected, planner);
		this.metrics.appended(lines.size(), System.nanoTime() - start);
		return lines;
	}

	@Override
	public @Nullable String moveLeaf(String sessionId, ExpectedLeaf expected, @Nullable String entryId) {
		return this.registry.require(sessionId).moveLeaf(expected, entryId);
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
		StoredSession session = this.registry.require(sessionId);
		try {
			session.delete(expected);
		}
		catch (IOException ex) {
			throw new StorageException("Could not delete session " + sessionId, ex);
		}
		finally {
			if (session.isDeleted()) {
				this.registry.forget(session);
			}
		}
	}

	/** Keeps the session loaded, and taking in what other processes append to its file, until the handle is closed. */
	@Override
	public SessionWatch watch(String sessionId) {
		return this.registry.require(sessionId).watch();
	}

	/** Sessions currently held in memory. */
	public int loadedSessions() {
		return this.registry.loadedSessions();
	}

	/** Unloads every session and releases every file lock. */
	@Override
	public void close() {
		this.registry.sessions().forEach(StoredSession::close);
	}

	/** Finds session files that other tools added (a listing does so by itself). */
	public void rescan() {
		this.registry.rescan();
	}

	/** The sessions, for the watch and the poll to tell of changes on disk. */
	SessionRegistry registry() {
		return this.registry;
	}

	/** A new session file, complete before it is registered: its leaf is persisted when it is not the last entry. */
	private SessionInfo write(NewSession content, Instant now) {
		String id = content.header().id();
		Path file = newSessionFile(id, content.header().cwd(), now);
		this.registry.creating(file);
		try {
			try {
				Files.createDirectories(file.getParent());
				AtomicFiles.replace(file, SessionContent.of(content.lines()));
				String last = content.entries().isEmpty() ? null : content.entries().get(content.entries().size() - 1).id();
				if (!Objects.equals(content.leafId(), last)) {
					LeafSidecar.write(file, content.leafId(), Files.size(file));
				}
			}
			catch (IOException ex) {
				throw new StorageException("Could not create session " + id, ex);
			}
			SessionInfo info = this.registry.add(id, file).info();
			tellListeners(new SessionChange.SessionCreated(info, SessionChange.Origin.ARBOR));
			return info;
		}
		finally {
			this.registry.created(file);
		}
	}

	/**
	 * Where pi would write the session: in the folder of its {@code cwd} (docs/STORAGE.md#where-new-sessions-go), so
	 * that pi's {@code /resume} in that directory finds it.
	 */
	private Path newSessionFile(String sessionId, @Nullable String cwd, Instant now) {
		Path folder = cwdFolder(cwd);
		return StorageFiles.newSessionFile((folder != null) ? folder : this.root, sessionId, now);
	}

	/**
	 * The folder of the cwd, or {@code null} where the root holds the session instead: no cwd, or a folder that may
	 * not be written. Its name has no separator left, so it is a child of the root; the boundary still decides, for
	 * a link planted under that name.
	 */
	private @Nullable Path cwdFolder(@Nullable String cwd) {
		String name = StorageFiles.cwdFolder(cwd);
		if (name == null || name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
			return null;
		}
		Path folder;
		try {
			folder = this.root.resolve(name);
		}
		catch (InvalidPathException ex) {
			return null; // a NUL, or characters the file system's encoding does not have
		}
		if (this.boundary.refusal(folder) != null) {
			return null;
		}
		return (Files.isDirectory(folder) || !Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) ? folder : null;
	}

	private StoredSession newSession(String sessionId, Path file) {
		return new StoredSession(sessionId, file, this.context);
	}

	private SessionFile openFile(Path file) throws IOException {
		return SessionFile.open(file, this.fsync, channel -> {
			long start = System.nanoTime();
			channel.force(false); // fdatasync: the data and the new length, all a reader needs
			this.metrics.synced(System.nanoTime() - start);
		});
	}

}

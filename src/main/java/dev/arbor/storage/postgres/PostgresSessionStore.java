package dev.arbor.storage.postgres;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Ids;
import dev.arbor.session.Json;
import dev.arbor.session.ListingFacts;
import dev.arbor.session.NewSession;
import dev.arbor.session.SessionCopies;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionIds;
import dev.arbor.session.SessionTree;
import dev.arbor.session.StoredLine;
import dev.arbor.session.Timestamps;
import dev.arbor.storage.AppendKeys;
import dev.arbor.storage.AppendPlans;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.IdempotencyKey;
import dev.arbor.storage.InvalidSessionFileException;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.NavigationLease;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionExistsException;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.SessionTooLargeException;
import dev.arbor.storage.SessionWatch;
import dev.arbor.storage.StorageException;
import dev.arbor.storage.StorageMetrics;
import dev.arbor.storage.UnreadableSession;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link SessionStore} on PostgreSQL, for several replicas serving the same sessions. The database is the truth:
 * every read first asks it for the session's position (one indexed row), and the tree this replica caches catches
 * up when another replica changed the session, so a read sees every write acknowledged before it, on any replica.
 * Every change runs in one transaction under the session's advisory lock: the condition is checked against the tree
 * as of the committed state, the lines and the new leaf are written, and the listeners (the events) write theirs in
 * the same transaction. The tree takes the change only once it is committed, so a failed write changes nothing.
 * <p>
 * Listeners hear this replica's changes inside the transaction that makes them: what they write through the same
 * data source commits with the change, or not at all. Other replicas' changes reach this one through the events
 * table (see {@code PostgresEventBus}), not through the listeners.
 */
public final class PostgresSessionStore implements SessionStore, AutoCloseable {

	/** How long a write waits between looks while a navigation on another replica holds the session. */
	private static final long LEASE_POLL_MILLIS = 20;

	private final SessionTable table;

	private final SessionCache cache;

	private final TransactionTemplate transactions;

	private final InstantSource clock;

	private final StorageMetrics metrics;

	private final long maxSessionBytes;

	private final List<SessionChangeListener> listeners = new CopyOnWriteArrayList<>();

	private final NavigationLeases leases;

	private final AppendKeyTable appendKeys;

	/**
	 * @param jdbc the database
	 * @param transactionManager its transactions
	 * @param replicaId this replica, as a navigation's lease names it
	 * @param cacheBudgetBytes the trees this replica keeps, beyond which idle ones are dropped
	 * @param maxSessionBytes the most a session may grow to by Arbor's writes (it is held in memory whole)
	 * @param clock the time of new entries and sessions
	 * @param metrics told of appends
	 * @param notifications where aborts from other replicas arrive
	 * @param leaseDuration how long a navigation's hold on its session lasts unless renewed (a replica that dies
	 * lets go of its sessions after this)
	 * @param appendKeyWindow how long the body an idempotency key of an append came with is kept, for every replica to
	 * refuse the key with another body
	 */
	public PostgresSessionStore(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, String replicaId,
			long cacheBudgetBytes, long maxSessionBytes, InstantSource clock, StorageMetrics metrics,
			DatabaseNotifications notifications, Duration leaseDuration, Duration appendKeyWindow) {
		this.table = new SessionTable(jdbc, replicaId);
		this.transactions = new TransactionTemplate(transactionManager);
		this.leases = new NavigationLeases(JdbcClient.create(jdbc), this.transactions, replicaId, leaseDuration,
				notifications);
		TransactionTemplate readOnly = new TransactionTemplate(transactionManager);
		readOnly.setReadOnly(true);
		this.cache = new SessionCache(this.table, readOnly, cacheBudgetBytes);
		this.maxSessionBytes = maxSessionBytes;
		this.clock = clock;
		this.metrics = metrics;
		this.appendKeys = new AppendKeyTable(JdbcClient.create(jdbc), appendKeyWindow);
		fillListings();
		fillSearch();
	}

	/**
	 * Writes the search rows of every session stored before search (see {@code db/migration/V5__search.sql}), one
	 * session per transaction under its lock, so that each is found whole once its transaction commits.
	 */
	private void fillSearch() {
		for (String sessionId : this.table.unsearched()) {
			this.transactions.executeWithoutResult(status -> {
				this.table.lock(sessionId);
				this.table.find(sessionId).ifPresent(this.table::indexForSearch);
			});
		}
	}

	/**
	 * Fills in the listing of every session stored before the listing columns, from its entries by the rules every
	 * append follows (see {@code db/migration/V4__session_listing.sql}): once, so that no listing reads entries.
	 */
	private void fillListings() {
		for (String sessionId : this.table.unlisted()) {
			this.table.find(sessionId).ifPresent(this::listed);
		}
	}

	/** The row's listing, filled in first where the row was stored before the listing columns. */
	private ListingFacts listed(SessionRow row) {
		if (row.listing() != null) {
			return row.listing();
		}
		ListingFacts listing = this.cache.read(row, SessionTree::listing);
		this.table.listed(row.id(), row.position(), listing);
		return listing;
	}

	@Override
	public void addChangeListener(SessionChangeListener listener) {
		this.listeners.add(listener);
	}

	@Override
	public SessionInfo create(@Nullable String cwd, @Nullable String title, @Nullable String parentSession) {
		Instant now = this.clock.instant();
		String id = SessionIds.newId(now);
		return insert(new NewSession(SessionHeader.create(id, now, cwd, title, parentSession), List.of(), null));
	}

	@Override
	public SessionInfo importSession(byte[] content, boolean skipMalformedLines, boolean newId) {
		LoadedSession session = SessionFileReader.read(FileLines.split(content), "the uploaded file");
		if (!session.malformedLines().isEmpty() && !skipMalformedLines) {
			throw new InvalidSessionFileException("the uploaded file", session.malformedLines());
		}
		SessionTree tree = session.tree();
		SessionHeader header = newId ? tree.header().withId(SessionIds.newId(this.clock.instant())) : tree.header();
		if (!Ids.isValid(header.id())) {
			throw new InvalidSessionFileException("the uploaded file", "its session id is not of the form " + Ids.PATTERN);
		}
		return insert(new NewSession(header, tree.titleSlot(), tree.getEntries(), tree.leafId()));
	}

	@Override
	public List<SessionInfo> list() {
		return this.table.all().stream().map(this::info).toList();
	}

	/** Every session is rows the store wrote itself: none is unreadable. */
	@Override
	public List<UnreadableSession> unreadable() {
		return List.of();
	}

	@Override
	public SessionInfo get(String sessionId) {
		return info(row(sessionId));
	}

	@Override
	public <T> T read(String sessionId, Function<SessionTree, T> reader) {
		return this.cache.read(row(sessionId), reader);
	}

	@Override
	public List<EntryLine> append(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts,
			@Nullable IdempotencyKey key) {
		Function<SessionTree, List<EntryLine>> plan = AppendPlans.entries(sessionId, drafts, key, this.clock);
		if (key == null) {
			return timedAppend(sessionId, expected, plan);
		}
		// the key's body goes into the database with the append, for every replica to refuse another body: what
		// AppendKeys remembers is one replica's
		byte[] bodyHash = AppendKeys.digest(drafts);
		return timedAppend(sessionId, expected, tree -> {
			this.appendKeys.claim(sessionId, key, bodyHash, this.clock.instant());
			return plan.apply(tree);
		});
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
		List<EntryLine> lines = change(sessionId, (session, row) -> {
			SessionTree tree = session.tree();
			String oldLeafId = tree.leafId();
			expected.check(sessionId, oldLeafId);
			List<EntryLine> planned = planner.apply(tree);
			long bytes = row.bytes() + linesBytes(planned);
			if (bytes > this.maxSessionBytes) {
				throw new SessionTooLargeException(sessionId, bytes, this.maxSessionBytes);
			}
			long newest = Math.max(row.lastEntryTimestamp(), newestTimestamp(planned));
			this.table.insertEntries(sessionId, tree.size(), planned);
			// the tree is current under the lock: the listing goes on from it, as the count does
			long position = this.table.appended(sessionId, planned.get(planned.size() - 1).id(),
					tree.size() + planned.size(), bytes, newest, this.clock.millis(), tree.listing().plus(planned));
			tell(new SessionChange.EntriesAppended(sessionId, planned, oldLeafId, Origin.ARBOR));
			return new Committed<>(planned, () -> {
				tree.append(planned);
				session.advanced(position, bytes);
			});
		});
		this.metrics.appended(lines.size(), System.nanoTime() - start);
		return lines;
	}

	@Override
	public @Nullable String moveLeaf(String sessionId, ExpectedLeaf expected, @Nullable String entryId) {
		return change(sessionId, (session, row) -> {
			SessionTree tree = session.tree();
			String oldLeafId = tree.leafId();
			expected.check(sessionId, oldLeafId);
			if (entryId != null) {
				tree.requireEntry(entryId);
			}
			if (Objects.equals(entryId, oldLeafId)) {
				return new Committed<>(entryId, () -> {
				});
			}
			long position = this.table.leafMoved(sessionId, entryId, this.clock.millis());
			tell(new SessionChange.LeafMoved(sessionId, oldLeafId, entryId));
			return new Committed<>(entryId, () -> {
				tree.moveLeaf(entryId);
				session.advanced(position, row.bytes());
			});
		});
	}

	@Override
	public SessionInfo createBranchedSession(String sessionId, String leafId) {
		Instant now = this.clock.instant();
		String newId = SessionIds.newId(now);
		return insert(read(sessionId, tree -> SessionCopies.createBranchedSession(tree, leafId, newId, now)));
	}

	@Override
	public SessionInfo fork(String sessionId) {
		Instant now = this.clock.instant();
		String newId = SessionIds.newId(now);
		return insert(read(sessionId, tree -> SessionCopies.fork(tree, newId, now)));
	}

	@Override
	public void delete(String sessionId, ExpectedLeaf expected) {
		change(sessionId, (session, row) -> {
			expected.check(sessionId, row.leafId());
			this.table.delete(sessionId);
			tell(new SessionChange.SessionDeleted(sessionId, Origin.ARBOR));
			return new Committed<>(null, () -> this.cache.forget(sessionId));
		});
	}

	/** Every read is as current as the database: there is nothing to keep up with while someone follows. */
	@Override
	public SessionWatch watch(String sessionId) {
		row(sessionId);
		return () -> {
		};
	}

	@Override
	public NavigationLease holdForNavigation(String sessionId, @Nullable String requestId, Future<?> abort) {
		return this.leases.hold(sessionId, requestId, abort);
	}

	@Override
	public boolean abortNavigation(String sessionId, String requestId) {
		return this.leases.requestAbort(sessionId, requestId);
	}

	/** Stops renewing leases: they expire, and other replicas go on. */
	@Override
	public void close() {
		this.leases.close();
	}

	/** Trees this replica holds. */
	public int loadedSessions() {
		return this.cache.loadedSessions();
	}

	private SessionInfo insert(NewSession session) {
		String id = session.header().id();
		long bytes = fileBytes(session);
		long newest = newestTimestamp(session.entries());
		if (newest == Timestamps.UNKNOWN && session.header().timestamp() != null) {
			newest = Timestamps.parseMillis(session.header().timestamp());
		}
		String title = (session.titleSlot() != null && session.titleSlot().title() != null)
				? session.titleSlot().title() : session.header().title();
		long lastEntry = newest;
		SessionInfo info = this.transactions.execute(status -> {
			this.table.lock(id); // before anything is written: see SessionLocks
			if (!this.table.insert(session, title, ListingFacts.of(session.entries()), bytes, lastEntry,
					this.clock.millis())) {
				throw new SessionExistsException(id);
			}
			SessionInfo created = info(this.table.find(id).orElseThrow());
			tell(new SessionChange.SessionCreated(created, Origin.ARBOR));
			return created;
		});
		return Objects.requireNonNull(info);
	}

	/**
	 * Runs a change of one session in a transaction under its advisory lock, with this replica's tree of it up to
	 * date and write-locked; the tree takes the change once it is committed. While a navigation on another replica
	 * holds the session, the change waits for it, as it would for one on this replica.
	 */
	private <T> T change(String sessionId, SessionChangeWork<T> work) {
		while (true) {
			CachedSession[] locked = new CachedSession[1];
			try {
				Committed<T> committed = this.transactions.execute(status -> {
					this.table.lock(sessionId);
					SessionRow row = row(sessionId);
					if (row.navigationElsewhere()) {
						return null;
					}
					locked[0] = this.cache.lockForWrite(row);
					return work.apply(locked[0], row);
				});
				if (committed != null) {
					committed.apply().run();
					return committed.result();
				}
			}
			finally {
				if (locked[0] != null) {
					locked[0].lock.writeLock().unlock();
					this.cache.evictIfNeeded(locked[0]);
				}
			}
			pause();
		}
	}

	private SessionRow row(String sessionId) {
		return this.table.find(sessionId).orElseThrow(() -> {
			this.cache.forget(sessionId); // deleted by another replica
			return new SessionNotFoundException(sessionId);
		});
	}

	private void tell(SessionChange change) {
		for (SessionChangeListener listener : this.listeners) {
			listener.onChange(change); // in the transaction: a listener that fails rolls the change back
		}
	}

	private SessionInfo info(SessionRow row) {
		SessionHeader parsed = Objects.requireNonNull(SessionHeader.parse(Json.parseObject(row.header())));
		SessionHeader header = new SessionHeader(parsed.id(), parsed.version(), new StoredLine(row.header()));
		return new SessionInfo(row.id(), null, header, row.title(), listed(row), row.leafId(), row.entryCount(),
				row.lastEntryTimestamp(), row.changedAt(), 0);
	}

	/** The session's size as a file: the title slot, the header and the entries, each with its newline. */
	private static long fileBytes(NewSession session) {
		long bytes = session.header().json().length() + 1 + linesBytes(session.entries());
		return (session.titleSlot() != null) ? bytes + session.titleSlot().line().length() + 1 : bytes;
	}

	private static long linesBytes(List<EntryLine> lines) {
		long bytes = 0;
		for (EntryLine line : lines) {
			bytes += line.length() + 1;
		}
		return bytes;
	}

	private static long newestTimestamp(List<EntryLine> lines) {
		long newest = Timestamps.UNKNOWN;
		for (EntryLine line : lines) {
			newest = Math.max(newest, line.timestamp());
		}
		return newest;
	}

	private static void pause() {
		try {
			Thread.sleep(LEASE_POLL_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new StorageException("Interrupted while a navigation held the session", ex);
		}
	}

	/** A change, done in the database; {@code apply} brings the tree along once it is committed. */
	private record Committed<T>(@Nullable T result, Runnable apply) {
	}

	@FunctionalInterface
	private interface SessionChangeWork<T> {

		Committed<T> apply(CachedSession session, SessionRow row);

	}

}

package dev.arbor.storage.postgres;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.FileLines;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.StorageException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The trees this replica holds, each brought up to date with its row before it is used: loaded whole from its
 * entries the first time, then by the entries added since (and the leaf) when another replica changed it. Idle
 * trees beyond the budget ({@code arbor.storage.cache-size}) are dropped; the database keeps everything.
 */
final class SessionCache {

	private final Map<String, CachedSession> sessions = new ConcurrentHashMap<>();

	private final SessionTable table;

	private final TransactionTemplate readOnly;

	private final long budgetBytes;

	SessionCache(SessionTable table, TransactionTemplate readOnly, long budgetBytes) {
		this.table = table;
		this.readOnly = readOnly;
		this.budgetBytes = budgetBytes;
	}

	/** Runs a reader over the session as of the row, or later. */
	<T> T read(SessionRow row, Function<SessionTree, T> reader) {
		CachedSession session = this.sessions.computeIfAbsent(row.id(), CachedSession::new);
		var readLock = session.lock.readLock();
		readLock.lock();
		try {
			if (session.isCurrent(row)) {
				return readAndCount(session, row, reader);
			}
		}
		finally {
			readLock.unlock();
		}
		// The connection first, then the lock: a writer holds the lock with its connection taken already, so a reader
		// that waited for a connection under the lock could starve the pool of those writers and wait forever.
		boolean[] downgraded = new boolean[1];
		try {
			this.readOnly.executeWithoutResult(status -> {
				session.lock.writeLock().lock();
				try {
					bringUpToDate(session, row);
					readLock.lock(); // downgrade: nobody unloads it between bringing it up to date and reading
					downgraded[0] = true;
				}
				finally {
					session.lock.writeLock().unlock();
				}
			});
		}
		catch (RuntimeException | Error ex) {
			if (downgraded[0]) {
				readLock.unlock();
			}
			throw ex;
		}
		try {
			return readAndCount(session, row, reader);
		}
		finally {
			readLock.unlock();
			evictIfNeeded(session);
		}
	}

	private static <T> T readAndCount(CachedSession session, SessionRow row, Function<SessionTree, T> reader) {
		session.used();
		long kept = session.tree().keptViewBytes();
		T result = reader.apply(session.tree());
		if (session.tree().keptViewBytes() > kept) {
			session.grew(row.bytes()); // a first search keeps about as much again as the session's lines
		}
		return result;
	}

	/** Takes the session's write lock, with the tree up to date with the row; the caller unlocks it. */
	CachedSession lockForWrite(SessionRow row) {
		CachedSession session = this.sessions.computeIfAbsent(row.id(), CachedSession::new);
		session.lock.writeLock().lock();
		try {
			bringUpToDate(session, row);
			session.used();
			return session;
		}
		catch (RuntimeException | Error ex) {
			session.lock.writeLock().unlock();
			throw ex;
		}
	}

	void forget(String sessionId) {
		this.sessions.remove(sessionId);
	}

	int loadedSessions() {
		return (int) this.sessions.values().stream().filter(CachedSession::isLoaded).count();
	}

	/** Under the session's write lock. */
	private void bringUpToDate(CachedSession session, SessionRow row) {
		if (session.isCurrent(row)) {
			return;
		}
		if (!session.isSameIncarnation(row)) {
			session.loaded(load(row), row.incarnation(), row.position(), row.bytes());
			return;
		}
		SessionTree tree = session.tree();
		List<EntryLine> added = new ArrayList<>();
		this.readOnly.executeWithoutResult(status -> this.table.forEachEntryLine(row.id(), tree.size(),
				row.entryCount(), line -> added.add(EntryLine.of(line))));
		tree.append(added);
		if (!Objects.equals(tree.leafId(), row.leafId())) {
			tree.moveLeaf(row.leafId());
		}
		session.advanced(row.position(), row.bytes());
	}

	/** The session as the file store would read its file: the same lines give the same tree. */
	private SessionTree load(SessionRow row) {
		ByteArrayOutputStream content = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, row.bytes()));
		if (row.titleSlot() != null) {
			content.writeBytes(row.titleSlot());
			content.write('\n');
		}
		content.writeBytes(row.header());
		content.write('\n');
		this.readOnly.executeWithoutResult(status -> this.table.forEachEntryLine(row.id(), 0, row.entryCount(),
				line -> {
					content.writeBytes(line);
					content.write('\n');
				}));
		var loaded = SessionFileReader.read(FileLines.split(content.toByteArray()), "session " + row.id());
		if (!loaded.malformedLines().isEmpty()) {
			throw new StorageException("Session " + row.id() + " has lines in the database that are not entries", null);
		}
		SessionTree tree = loaded.tree();
		if (!Objects.equals(tree.leafId(), row.leafId())) {
			tree.moveLeaf(row.leafId());
		}
		return tree;
	}

	/** Drops the trees used longest ago, but the one just used, while they take more than the budget. */
	void evictIfNeeded(CachedSession justUsed) {
		long total = this.sessions.values().stream().mapToLong(CachedSession::bytes).sum();
		if (total <= this.budgetBytes) {
			return;
		}
		List<CachedSession> oldestFirst = this.sessions.values()
			.stream()
			.filter(session -> session != justUsed && session.isLoaded())
			.sorted(Comparator.comparingLong(CachedSession::lastUsed))
			.toList();
		for (CachedSession session : oldestFirst) {
			if (total <= this.budgetBytes) {
				return;
			}
			if (session.lock.writeLock().tryLock()) {
				try {
					total -= session.bytes();
					session.unload();
				}
				finally {
					session.lock.writeLock().unlock();
				}
			}
		}
	}

}

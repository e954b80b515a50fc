package dev.arbor.storage;

import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Where sessions live. The engine and the web layer see storage only through this interface, so a
 * second store (PostgreSQL, for several instances) can be added without touching them.
 * <p>
 * Every method is thread-safe. Operations on one session are serialized; sessions proceed in
 * parallel. A mutation returns once its entries are durable (docs/SESSION-FORMAT.md#durability-and-concurrency); a
 * failed one changes nothing.
 */
public interface SessionStore {

	/** Creates an empty session. */
	SessionInfo create(@Nullable String cwd, @Nullable String title, @Nullable String parentSession);

	/**
	 * Stores an upstream session file under the id in its header, or a fresh one, migrated to version 3.
	 *
	 * @param content the file's bytes
	 * @param skipMalformedLines whether lines that are not entries are left out; if not, they fail the import
	 * @param newId whether the session gets a fresh id (its header says so) instead of the file's: a file imported
	 * twice, or two files of one id
	 * @throws InvalidSessionFileException when the content is not a session (or has malformed lines to keep)
	 * @throws SessionExistsException when a session with that id is stored already
	 */
	SessionInfo importSession(byte[] content, boolean skipMalformedLines, boolean newId);

	/** {@link #importSession(byte[], boolean, boolean)} under the id in the file's header. */
	default SessionInfo importSession(byte[] content, boolean skipMalformedLines) {
		return importSession(content, skipMalformedLines, false);
	}

	/**
	 * Every readable session, including files other tools added since the last listing. A store may hand out the
	 * same list again while nothing it lists changed (the file store does), so a caller may keep what it derived
	 * from the list for as long as it gets the same one; the list is never modified.
	 */
	List<SessionInfo> list();

	/** Files under the store that are not usable sessions, with the reason, as of the last listing. */
	List<UnreadableSession> unreadable();

	SessionInfo get(String sessionId);

	/** Runs a reader over the session; concurrent readers proceed together, writers wait. */
	<T> T read(String sessionId, Function<SessionTree, T> reader);

	/** Appends entries after the leaf, all or nothing; the leaf moves to the last one. */
	default List<EntryLine> append(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts) {
		return append(sessionId, expected, drafts, null);
	}

	/**
	 * {@link #append(String, ExpectedLeaf, List)}, under an idempotency key when one is given: the entries get the ids
	 * the key derives ({@link dev.arbor.session.KeyedAppend}), and when an earlier append of the same drafts under it is
	 * in the session already, nothing is written. Plan with {@link AppendPlans#entries(String, List, IdempotencyKey,
	 * java.time.InstantSource)}; callers go through {@link AppendKeys}, which answers that case.
	 */
	List<EntryLine> append(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts,
			@Nullable IdempotencyKey key);

	/** {@code branchWithSummary}: moves the leaf to {@code fromId} and appends a {@code branch_summary} there. */
	EntryLine appendBranchSummary(String sessionId, ExpectedLeaf expected, @Nullable String fromId, String summary,
			@Nullable JsonNode details, @Nullable Boolean fromExtension);

	/** {@code branch} ({@code entryId} given) or {@code resetLeaf} ({@code null}); returns the new leaf. */
	@Nullable String moveLeaf(String sessionId, ExpectedLeaf expected, @Nullable String entryId);

	/** {@code createBranchedSession(leafId)} into a new session (docs/SESSION-FORMAT.md#branching-and-forking). */
	SessionInfo createBranchedSession(String sessionId, String leafId);

	/** Copies every entry, labels and leaf into a new session. */
	SessionInfo fork(String sessionId);

	/** Deletes the session file and its leaf, once the leaf is as expected. */
	void delete(String sessionId, ExpectedLeaf expected);

	/**
	 * Keeps a session's changes coming while someone follows them: in the file store, the session stays loaded and
	 * takes in what other processes append to its file. Closing the handle ends that.
	 *
	 * @throws SessionNotFoundException when there is no such session
	 */
	SessionWatch watch(String sessionId);

	/**
	 * Holds a session for a navigation against the writes of other instances that share the store, waiting while
	 * another instance's navigation holds it. This instance's own writes are kept out by its gates.
	 *
	 * @param requestId the client's id for the navigation, by which another instance can abort it
	 * @param abort when done while waiting, gives up
	 * @throws java.util.concurrent.CancellationException when aborted while waiting
	 */
	default NavigationLease holdForNavigation(String sessionId, @Nullable String requestId, Future<?> abort) {
		return NavigationLease.LOCAL;
	}

	/**
	 * Asks the instance that runs a navigation under this id to abort it.
	 *
	 * @return whether the abort took: another instance runs one that had not committed to apply its result
	 * ({@link NavigationLease#commit}), and it stops without changing the session; false when none runs, or it is
	 * applying its result already
	 */
	default boolean abortNavigation(String sessionId, String requestId) {
		return false;
	}

	/** Registers a listener for every later change of any session (see {@link SessionChange}). */
	void addChangeListener(SessionChangeListener listener);

}

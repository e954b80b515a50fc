package dev.arbor.storage;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.KeyedAppend;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Appends under idempotency keys, the same for every store (docs/API.md#idempotent-appends): a retry of the same key
 * and body on the same session answers the entries the first attempt stored and writes nothing.
 * <p>
 * The entries are found in the session itself, by the ids the key derives ({@link KeyedAppend}): so a retry finds an
 * append whose answer was lost, even when the store failed after the entries were durable, the process died, or the
 * retry reached another replica. What the session cannot tell is kept here, in memory, for the keys of the last
 * {@code window}, at most {@code maxKeys} of them: an attempt still running (a retry gets
 * {@link AppendInFlightException}), and the body a key was first sent with (another body gets
 * {@link IdempotencyKeyReusedException}). A process that restarts, or another replica, forgets those two; it still
 * finds the entries, and appends a key's other body as new, unless its store keeps the bodies too (the PostgreSQL
 * store does, with {@link #digest}). Thread-safe.
 */
public final class AppendKeys {

	private final SessionStore store;

	private final int maxKeys;

	private final Duration window;

	private final InstantSource clock;

	/** Insertion order is the order of first use: the eldest expire first. Guarded by itself. */
	private final LinkedHashMap<Use.Slot, Use> uses = new LinkedHashMap<>();

	/**
	 * @param maxKeys the most keys remembered; beyond it the eldest are forgotten
	 * @param window how long a key is remembered after its first use
	 */
	public AppendKeys(SessionStore store, int maxKeys, Duration window, InstantSource clock) {
		if (maxKeys < 1) {
			throw new IllegalArgumentException("maxKeys must be positive");
		}
		this.store = store;
		this.maxKeys = maxKeys;
		this.window = window;
		this.clock = clock;
	}

	/**
	 * {@link SessionStore#append}, under a key when one is given.
	 *
	 * @throws IdempotencyKeyReusedException when the key was used on the session for other drafts
	 * @throws AppendInFlightException when an append under the key is still running
	 */
	public Appended append(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts,
			@Nullable IdempotencyKey key) {
		if (key == null) {
			return new Appended(this.store.append(sessionId, expected, drafts), false);
		}
		Use.Slot slot = new Use.Slot(sessionId, key.value());
		Use mine = new Use(digest(drafts), this.clock.instant(), null);
		Use earlier = claim(slot, mine);
		if (earlier != null) {
			return replay(slot, earlier, mine);
		}
		boolean answered = false;
		try {
			Appended appended = appendOnce(sessionId, expected, drafts, key);
			answered = true;
			remember(slot, mine, appended.entries());
			return appended;
		}
		finally {
			if (!answered) {
				forget(slot, mine); // the session tells a retry whether anything was stored
			}
		}
	}

	/** The entries in the session already (found before the leaf is checked, as a retry's may be stale), or new ones. */
	private Appended appendOnce(String sessionId, ExpectedLeaf expected, List<ObjectNode> drafts, IdempotencyKey key) {
		KeyedAppend keyed = KeyedAppend.of(sessionId, key.value());
		Optional<List<EntryLine>> stored = this.store.read(sessionId, tree -> keyed.find(tree, drafts));
		if (stored.isPresent()) {
			return new Appended(stored.get(), true);
		}
		try {
			return new Appended(this.store.append(sessionId, expected, drafts, key), false);
		}
		catch (AlreadyAppendedException ex) { // an attempt that raced this one stored them meanwhile
			return new Appended(ex.entries(), true);
		}
	}

	private Appended replay(Use.Slot slot, Use earlier, Use mine) {
		if (!MessageDigest.isEqual(earlier.digest, mine.digest)) {
			throw new IdempotencyKeyReusedException(slot.sessionId, slot.key);
		}
		List<String> ids = earlier.entryIds;
		if (ids == null) {
			throw new AppendInFlightException(slot.sessionId, slot.key);
		}
		return new Appended(this.store.read(slot.sessionId, tree -> {
			List<EntryLine> entries = new ArrayList<>(ids.size());
			for (String id : ids) {
				entries.add(tree.requireEntry(id));
			}
			return entries;
		}), true);
	}

	/** Registers the attempt, unless the key has a use still remembered: then that one. */
	private @Nullable Use claim(Use.Slot slot, Use mine) {
		synchronized (this.uses) {
			Instant oldest = mine.firstUsed.minus(this.window);
			Iterator<Use> eldest = this.uses.values().iterator();
			while (eldest.hasNext() && eldest.next().firstUsed.isBefore(oldest)) {
				eldest.remove();
			}
			Use earlier = this.uses.get(slot);
			if (earlier != null) {
				return earlier;
			}
			this.uses.put(slot, mine);
			if (this.uses.size() > this.maxKeys) {
				Iterator<Map.Entry<Use.Slot, Use>> first = this.uses.entrySet().iterator();
				first.next();
				first.remove();
			}
			return null;
		}
	}

	private void remember(Use.Slot slot, Use mine, List<EntryLine> entries) {
		List<String> ids = new ArrayList<>(entries.size());
		for (EntryLine entry : entries) {
			ids.add(entry.id());
		}
		synchronized (this.uses) {
			if (this.uses.get(slot) == mine) { // put keeps the place of first use
				this.uses.put(slot, new Use(mine.digest, mine.firstUsed, List.copyOf(ids)));
			}
		}
	}

	private void forget(Use.Slot slot, Use mine) {
		synchronized (this.uses) {
			this.uses.remove(slot, mine);
		}
	}

	/**
	 * The drafts as JSON, hashed: what "the same request body" means, kept in 32 bytes per key (and by a store that
	 * keeps keys itself).
	 */
	public static byte[] digest(List<ObjectNode> drafts) {
		try {
			MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
			for (ObjectNode draft : drafts) {
				sha256.update(Json.toBytes(draft));
				sha256.update((byte) '\n');
			}
			return sha256.digest();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

	/**
	 * One remembered use of a key on a session.
	 *
	 * @param digest the drafts it was sent with ({@link #digest})
	 * @param firstUsed when it was first sent
	 * @param entryIds the entries it stored, or {@code null} while its first attempt runs
	 */
	private record Use(byte[] digest, Instant firstUsed, @Nullable List<String> entryIds) {

		private record Slot(String sessionId, String key) {
		}

	}

}

package dev.arbor.session;

import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

/**
 * A session's selector views, kept between requests so that paging through one is a slice of it: the
 * {@link RowFacts} of every entry (read once, extended on append), each entry's searchable text once a search
 * asked for it (likewise), the {@link FlatOrder} of the current state, and the {@value #KEPT} views last asked
 * for. A change to the tree (an append, a leaf move; labels come by
 * append) makes the order and the views stale; they are rebuilt when next asked for, not on the write's path.
 * <p>
 * Readers of one tree run at once under its read lock, so building is serialized here.
 */
final class RowViews {

	/** Views kept per session: a client pages through one filter while another searches. */
	static final int KEPT = 2;

	/** Reading facts in parallel pays once there is this much to read. */
	private static final int PARALLEL_FROM = 20_000;

	private final SessionTree tree;

	/** Differs between two trees of the same session, so that a reloaded session never repeats a version. */
	private final String epoch = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);

	private byte[] facts = new byte[0];

	/** Each entry's searchable text in lower case, without its label: read at the first search, then kept. */
	private String[] searchable = new String[0];

	private @Nullable FlatOrder flat;

	private long flatChange = -1;

	private final Map<Key, TreeRows> views = new LinkedHashMap<>(4, 0.75f, true);

	/** What {@link #searchable} holds: its strings' headers and characters. */
	private long searchableBytes;

	/** What all this keeps, read without the monitor, which a build holds (see {@link #keptBytes}). */
	private volatile long keptBytes;

	RowViews(SessionTree tree) {
		this.tree = tree;
	}

	/** The order of the tree's current state, which the outline shares with the views. */
	synchronized FlatOrder flatOrder() {
		long change = this.tree.changeCount;
		if (change != this.flatChange) {
			this.views.clear();
			this.flat = FlatOrder.of(this.tree);
			this.flatChange = change;
			count();
		}
		return Objects.requireNonNull(this.flat);
	}

	synchronized TreeRows get(RowFilter filter, @Nullable String query, Set<String> folded) {
		long change = this.tree.changeCount;
		FlatOrder flat = flatOrder();
		readFacts();
		RowQuery parsed = RowQuery.parse(query);
		Key key = new Key(filter, parsed.normalized(), new TreeSet<>(folded));
		TreeRows view = this.views.get(key);
		if (view == null) {
			if (!parsed.isEmpty()) {
				readSearchable();
			}
			view = TreeRowsBuilder.build(this.tree, flat, this.facts, this.searchable,
					filter, parsed, key.folded(), this.epoch + "." + Long.toString(change, 36));
			this.views.put(key, view);
			Iterator<TreeRows> eldest = this.views.values().iterator();
			while (this.views.size() > KEPT) {
				eldest.next();
				eldest.remove();
			}
			count();
		}
		return view;
	}

	/**
	 * About the memory kept for the selector, which the store counts with the session's (the searchable text can come
	 * near the file's size). Read without waiting for a build in progress.
	 */
	long keptBytes() {
		return this.keptBytes;
	}

	private void count() {
		long views = 0;
		for (TreeRows view : this.views.values()) {
			views += view.bytes();
		}
		this.keptBytes = this.facts.length + this.searchableBytes + 8L * this.searchable.length
				+ ((this.flat != null) ? this.flat.bytes() : 0) + views;
	}

	/** Facts of the entries appended since the last read; entries never change, so older facts hold. */
	private void readFacts() {
		if (this.facts.length == this.tree.size()) {
			return;
		}
		byte[] facts = Arrays.copyOf(this.facts, this.tree.size());
		positionsFrom(this.facts.length).forEach(position -> facts[position] = RowFacts.of(this.tree.at(position)));
		this.facts = facts;
	}

	private void readSearchable() {
		if (this.searchable.length == this.tree.size()) {
			return;
		}
		String[] searchable = Arrays.copyOf(this.searchable, this.tree.size());
		int known = this.searchable.length;
		positionsFrom(known).forEach(position -> searchable[position] = RowContent.searchable(this.tree.at(position))
			.toLowerCase(Locale.ROOT));
		for (int i = known; i < searchable.length; i++) {
			// About: a string's header and its array's, then a byte a character (two beyond Latin-1).
			this.searchableBytes += 40 + searchable[i].length();
		}
		this.searchable = searchable;
	}

	/** The positions from {@code known} to the tree's end, in parallel when there are enough to pay for it. */
	private IntStream positionsFrom(int known) {
		IntStream positions = IntStream.range(known, this.tree.size());
		return (this.tree.size() - known >= PARALLEL_FROM) ? positions.parallel() : positions;
	}

	/** A view is the same for queries with the same tokens and the same folds. */
	private record Key(RowFilter filter, String tokens, SortedSet<String> folded) {
	}

}

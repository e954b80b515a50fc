package dev.arbor.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One session in memory: its header, its entries in file order and the tree they form, the labels
 * and the leaf (docs/SESSION-FORMAT.md#the-tree and docs/SESSION-FORMAT.md#the-leaf). Lookups by id are O(1); paths are
 * linear in their length. Structure is held in {@code int} arrays indexed by file position, so the tree costs a few
 * dozen bytes an entry beyond the stored lines.
 * <p>
 * Not thread-safe: the storage layer serializes writers and lets readers in under a read lock.
 * Mutations only ever add entries or move the leaf; they never change an entry.
 */
public final class SessionTree {

	private static final int NONE = -1;

	private final SessionHeader header;

	private final @Nullable TitleSlot titleSlot;

	private EntryLine[] entries;

	private int size;

	private final TreeLinks links;

	private final IdIndex index;

	private final Labels labels = new Labels();

	private int leaf = NONE;

	private long newestTimestamp = Timestamps.UNKNOWN;

	private final ListingFacts.Tally listing = new ListingFacts.Tally(ListingFacts.NONE);

	/** Appends and leaf moves so far: what the selector views are kept for. */
	long changeCount;

	private final RowViews rowViews = new RowViews(this);

	private SessionTree(SessionHeader header, @Nullable TitleSlot titleSlot, List<EntryLine> lines) {
		this.header = header;
		this.titleSlot = titleSlot;
		int capacity = Math.max(16, lines.size() + lines.size() / 8);
		this.entries = lines.toArray(new EntryLine[capacity]);
		this.size = lines.size();
		this.links = new TreeLinks(capacity);
		this.index = new IdIndex(position -> this.entries[position], lines.size());
		// docs/SESSION-FORMAT.md#the-tree: later duplicates win, so parents resolve only once every id is indexed.
		this.index.putAll(this.size);
		// A large session's parents are looked up on all cores; linking them in file order keeps children in it.
		IntStream positions = IntStream.range(0, this.size);
		(this.size >= IdIndex.PARALLEL_FROM ? positions.parallel() : positions)
			.forEach(i -> this.links.setParent(i, parentPosition(i)));
		this.links.computeDepths(this.size);
		for (int i = 0; i < this.size; i++) {
			if (isLookedUp(i)) {
				this.links.linkToParent(i);
			}
			this.newestTimestamp = Math.max(this.newestTimestamp, this.entries[i].timestamp());
			this.listing.add(this.entries[i]);
		}
		for (int i = 0; i < this.size; i++) {
			if (this.entries[i].isType(EntryTypes.LABEL)) {
				this.labels.apply(this.entries[i], id -> this.index.get(id) != NONE);
			}
		}
		this.leaf = this.size - 1;
	}

	/**
	 * A tree over loaded entries; the leaf starts on the last entry in file order (docs/SESSION-FORMAT.md#the-leaf).
	 *
	 * @param header the session header
	 * @param titleSlot the title slot, where the file has one
	 * @param entries the entries in file order
	 */
	public static SessionTree of(SessionHeader header, @Nullable TitleSlot titleSlot, List<EntryLine> entries) {
		return new SessionTree(header, titleSlot, entries);
	}

	public SessionHeader header() {
		return this.header;
	}

	public @Nullable TitleSlot titleSlot() {
		return this.titleSlot;
	}

	public String sessionId() {
		return this.header.id();
	}

	/** The title: a non-empty title slot overrides the header's (docs/SESSION-FORMAT.md#a-file-line-by-line). */
	public @Nullable String title() {
		return (this.titleSlot != null && this.titleSlot.title() != null) ? this.titleSlot.title()
				: this.header.title();
	}

	/** What pi's listing shows of the entries (docs/SESSION-FORMAT.md#how-a-session-is-listed). */
	public ListingFacts listing() {
		return this.listing.facts();
	}

	/** Number of entries in the file, duplicates included. */
	public int size() {
		return this.size;
	}

	// Reading the tree (docs/SESSION-FORMAT.md#the-tree)

	public Optional<EntryLine> getEntry(String id) {
		int position = this.index.get(id);
		return (position != NONE) ? Optional.of(this.entries[position]) : Optional.empty();
	}

	/** The entry, or {@link EntryNotFoundException} ({@code Entry <id> not found}). */
	public EntryLine requireEntry(String id) {
		return this.entries[requirePosition(id)];
	}

	public boolean contains(String id) {
		return this.index.get(id) != NONE;
	}

	/** Every entry in file order, duplicates included; a read-only view. */
	public List<EntryLine> getEntries() {
		return EntryLists.view(this.entries, this.size);
	}

	/**
	 * The entries in file order after the given one (all when {@code null}): where a page resumes. A read-only view.
	 * @throws EntryNotFoundException for an unknown id
	 */
	public List<EntryLine> getEntriesAfter(@Nullable String afterId) {
		int from = (afterId != null) ? requirePosition(afterId) + 1 : 0;
		return getEntries().subList(from, this.size);
	}

	/**
	 * Epoch milliseconds of the newest entry, whatever its place in the file (an imported file need not be in
	 * time order), or {@link Timestamps#UNKNOWN} when no entry has a readable timestamp.
	 */
	public long newestTimestamp() {
		return this.newestTimestamp;
	}

	/** Root → {@code fromId} inclusive; empty for an unknown id or {@code null}. Linear in the path length. */
	public List<EntryLine> getPath(@Nullable String fromId) {
		if (fromId == null) {
			return List.of();
		}
		int position = this.index.get(fromId);
		return (position != NONE) ? toEntries(pathPositions(position)) : List.of();
	}

	/** Root → leaf. */
	public List<EntryLine> getLeafPath() {
		return (this.leaf != NONE) ? toEntries(pathPositions(this.leaf)) : List.of();
	}

	/** Direct children in insertion (file) order. */
	public List<EntryLine> getChildren(String id) {
		List<EntryLine> children = new ArrayList<>();
		for (int child = firstChildOf(requirePosition(id)); child != NONE; child = nextSiblingOf(child)) {
			children.add(this.entries[child]);
		}
		return children;
	}

	/**
	 * Every entry once, roots in file order, children by timestamp, with resolved labels
	 * (docs/SESSION-FORMAT.md#the-tree).
	 */
	public SessionTreeView getTree() {
		return TreeViewBuilder.build(this);
	}

	/**
	 * The selector's rows (docs/SESSION-FORMAT.md#the-selector-rows), kept until the tree changes; see {@link TreeRow}.
	 */
	/**
	 * About the memory the selector's views keep beside the entries (docs/SESSION-FORMAT.md#the-selector-rows): the
	 * order, the views, and each entry's searchable text once a search asked for it.
	 */
	public long keptViewBytes() {
		return this.rowViews.keptBytes();
	}

	public TreeRows getTreeRows(RowFilter filter, @Nullable String query) {
		return this.rowViews.get(filter, query, Set.of());
	}

	/**
	 * The view with the rows below each of {@code folded} left out, as upstream's selector folds a branch
	 * (docs/SESSION-FORMAT.md#the-selector-rows); ids that name no entry fold nothing.
	 */
	public TreeRows getTreeRows(RowFilter filter, @Nullable String query, Set<String> folded) {
		return this.rowViews.get(filter, query, folded);
	}

	/** Chains of single-child entries folded into segments, in the order of the selector's rows; see {@link TreeOutline}. */
	public TreeOutline getOutline() {
		return TreeOutlineBuilder.build(this, this.rowViews.flatOrder());
	}

	public @Nullable String getLabel(String id) {
		return this.labels.get(id);
	}

	/** targetId → label, in the order the labels were first set. */
	public Map<String, String> getLabels() {
		Map<String, String> result = new LinkedHashMap<>();
		this.labels.all().forEach((target, label) -> result.put(target, label.label()));
		return result;
	}

	Map<String, Labels.Label> resolvedLabels() {
		return this.labels.all();
	}

	// Moving the leaf (docs/SESSION-FORMAT.md#the-leaf)

	public @Nullable String leafId() {
		return (this.leaf != NONE) ? this.entries[this.leaf].id() : null;
	}

	/** {@code branch(id)}: the leaf moves to an existing entry; nothing is written. */
	public void branch(String id) {
		if (id == null) {
			throw new IllegalArgumentException("branch cannot target null: use resetLeaf");
		}
		this.leaf = requirePosition(id);
		this.changeCount++;
	}

	/** {@code resetLeaf()}: the next append becomes a new root. */
	public void resetLeaf() {
		this.leaf = NONE;
		this.changeCount++;
	}

	/** Moves the leaf to an entry or to {@code null}; {@code branch} or {@code resetLeaf}. */
	public void moveLeaf(@Nullable String id) {
		if (id == null) {
			resetLeaf();
		}
		else {
			branch(id);
		}
	}

	// appends: prepare (validate, no change), then add what storage made durable

	/**
	 * Validates drafts (docs/SESSION-FORMAT.md#entry-types) and turns them into entries chained from the leaf, without
	 * changing the tree. All or nothing: one invalid draft rejects the batch.
	 */
	public List<EntryLine> prepareAppend(List<ObjectNode> drafts, Instant now) {
		return prepareAppend(drafts, now, null);
	}

	/**
	 * {@link #prepareAppend(List, Instant)} with the ids derived from an idempotency key ({@link KeyedAppend}), or
	 * random ones for {@code null}.
	 */
	public List<EntryLine> prepareAppend(List<ObjectNode> drafts, Instant now, @Nullable KeyedAppend keyed) {
		return new AppendPlanner(this, now, keyed).plan(drafts);
	}

	/**
	 * {@code branchWithSummary(fromId | null, summary, details?, fromExtension?)}: a {@code branch_summary}
	 * entry whose parent (and {@code fromId}) is the position navigated to, not yet added.
	 */
	public EntryLine prepareBranchSummary(@Nullable String fromId, String summary, @Nullable JsonNode details,
			@Nullable Boolean fromExtension, Instant now) {
		if (fromId != null) {
			requirePosition(fromId);
		}
		return new AppendPlanner(this, now, null).branchSummary(fromId, summary, details, fromExtension);
	}

	/**
	 * Adds entries made by {@link #prepareAppend} or {@link #prepareBranchSummary} once they are
	 * durable; the leaf moves to the last one.
	 */
	public void append(List<EntryLine> lines) {
		for (EntryLine line : lines) {
			add(line);
		}
	}

	private void add(EntryLine line) {
		if (this.size == this.entries.length) {
			grow();
		}
		int position = this.size++;
		this.entries[position] = line;
		this.index.put(line, position);
		this.links.setParent(position, parentPosition(position));
		this.links.computeDepth(position);
		if (isLookedUp(position)) {
			this.links.linkToParent(position);
		}
		this.newestTimestamp = Math.max(this.newestTimestamp, line.timestamp());
		this.listing.add(line);
		if (line.isType(EntryTypes.LABEL)) {
			this.labels.apply(line, id -> this.index.get(id) != NONE);
		}
		this.leaf = position;
		this.changeCount++;
	}

	// The model context (docs/SESSION-FORMAT.md#the-model-context)

	/** {@code buildSessionContext} at the leaf. */
	public SessionContext buildSessionContext() {
		return ContextBuilder.build(this, this.leaf);
	}

	/** {@code buildSessionContext} at a given leaf: unknown → last entry, {@code null} → empty. */
	public SessionContext buildSessionContext(@Nullable String leafId) {
		if (leafId == null) {
			return ContextBuilder.build(this, NONE);
		}
		int position = this.index.get(leafId);
		return ContextBuilder.build(this, (position != NONE) ? position : this.size - 1);
	}

	// structure, for the builders of this package

	int positionOf(String id) {
		return this.index.get(id);
	}

	int requirePosition(String id) {
		int position = this.index.get(id);
		if (position == NONE) {
			throw new EntryNotFoundException(id);
		}
		return position;
	}

	EntryLine at(int position) {
		return this.entries[position];
	}

	int parentOf(int position) {
		return this.links.parentOf(position);
	}

	/**
	 * The entries on the path to the entry, itself included, or -1 when a walk up goes round a cycle
	 * (docs/SESSION-FORMAT.md#the-tree).
	 */
	int depthOf(int position) {
		return this.links.depthOf(position);
	}

	int firstChildOf(int position) {
		return this.links.firstChildOf(position);
	}

	int nextSiblingOf(int position) {
		return this.links.nextSiblingOf(position);
	}

	int leafPosition() {
		return this.leaf;
	}

	/** Whether lookups by this entry's id find it (false for an earlier duplicate). */
	boolean isLookedUp(int position) {
		// As many ids as entries: no duplicates, so each entry is the one its id finds, without a lookup.
		return this.index.size() == this.size || this.index.get(this.entries[position]) == position;
	}

	/** Positions from the root down to {@code position}, cycle-safe (docs/SESSION-FORMAT.md#the-tree). */
	int[] pathPositions(int position) {
		return PathWalk.from(this, position);
	}

	List<EntryLine> toEntries(int[] positions) {
		return EntryLists.view(this.entries, positions);
	}

	/**
	 * Where the entry's parent is, or {@link #NONE}. Agents append each entry under the one before it, so that one is
	 * tried first, without a lookup; it must be the entry its id finds (docs/SESSION-FORMAT.md#the-tree: a later
	 * duplicate wins).
	 */
	private int parentPosition(int position) {
		EntryLine entry = this.entries[position];
		if (position > 0 && entry.hasHexParent()) {
			EntryLine previous = this.entries[position - 1];
			if (previous.hasHexId(entry.hexParentId()) && isLookedUp(position - 1)) {
				return position - 1;
			}
		}
		return this.index.getParent(entry);
	}

	private void grow() {
		int capacity = this.entries.length + (this.entries.length >> 1) + 16;
		this.entries = Arrays.copyOf(this.entries, capacity);
		this.links.grow(capacity, this.size);
	}

}

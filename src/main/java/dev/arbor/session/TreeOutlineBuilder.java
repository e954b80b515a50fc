package dev.arbor.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link TreeOutline} in one iterative pass over the entries. It walks the tree exactly as
 * {@link TreeRowsBuilder} does (the same roots in the same order, the same sibling order, the same rule for what
 * only a cycle reaches), so that each segment is a run of consecutive rows of the {@code all} view and a client can
 * expand it by paging those rows.
 * <p>
 * Per entry it reads only the tree's structure (children, labels, the leaf), and the entry itself only until the
 * segment's first user message and first row are found; a message is scanned only to tell whether it is a row and
 * for the preview of that first user message.
 */
final class TreeOutlineBuilder {

	private static final int NONE = -1;

	private final SessionTree tree;

	private final int leaf;

	private final boolean[] onActivePath;

	private final boolean[] visited;

	private final boolean[] labelled;

	private final List<TreeOutline.Segment> segments = new ArrayList<>();

	private int entryCount;

	/** The depth-first stack: the first entries of segments still to walk, and each one's depth. */
	private int[] pending = new int[64];

	private int[] pendingDepth = new int[64];

	private int top;

	private int[] children = new int[16];

	private TreeOutlineBuilder(SessionTree tree) {
		this.tree = tree;
		this.leaf = tree.leafPosition();
		this.onActivePath = new boolean[tree.size()];
		this.visited = new boolean[tree.size()];
		this.labelled = new boolean[tree.size()];
		for (String target : tree.resolvedLabels().keySet()) {
			int position = tree.positionOf(target);
			if (position != NONE) {
				this.labelled[position] = true;
			}
		}
	}

	static TreeOutline build(SessionTree tree) {
		TreeOutlineBuilder builder = new TreeOutlineBuilder(tree);
		builder.visitRoots();
		return new TreeOutline(tree.leafId(), builder.entryCount, builder.segments);
	}

	/** The roots of {@link TreeRowsBuilder}: the leaf's first, then file order, then what only a cycle reaches. */
	private void visitRoots() {
		if (this.leaf != NONE) {
			visit(markActivePath());
		}
		int size = this.tree.size();
		for (int i = 0; i < size; i++) {
			if (!this.visited[i] && this.tree.isLookedUp(i) && this.tree.parentOf(i) == NONE) {
				visit(i);
			}
		}
		for (int i = 0; i < size; i++) {
			if (!this.visited[i] && this.tree.isLookedUp(i)) {
				visit(i);
			}
		}
	}

	/**
	 * Marks the leaf and its ancestors and gives the leaf's root: where the walk up ends, or, as {@link PathWalk}
	 * cuts a walk that goes round a cycle, the entry whose parent the walk has passed already. Without the path's
	 * positions: at 400,000 entries they cost more than the rest of the outline.
	 */
	private int markActivePath() {
		int position = this.leaf;
		this.onActivePath[position] = true;
		int parent;
		while ((parent = this.tree.parentOf(position)) != NONE && !this.onActivePath[parent]) {
			position = parent;
			this.onActivePath[position] = true;
		}
		return position;
	}

	private void visit(int root) {
		this.visited[root] = true;
		push(root, 0);
		while (this.top > 0) {
			this.top--;
			int first = this.pending[this.top];
			int depth = this.pendingDepth[this.top];
			walkSegment(first, depth, (first != root) ? this.tree.at(this.tree.parentOf(first)).id() : null);
		}
	}

	/** Follows single children from the segment's first entry to its end, adds it, and queues the segments below. */
	private void walkSegment(int first, int depth, @Nullable String parentId) {
		int last = first;
		int length = 0;
		int firstUser = NONE;
		int firstRow = NONE;
		int labels = 0;
		boolean containsLeaf = false;
		int count;
		while (true) {
			length++;
			if (firstUser == NONE && NavigationPlan.isUserMessage(this.tree.at(last))) {
				firstUser = last;
			}
			if (firstRow == NONE && isRow(last)) {
				firstRow = last;
			}
			if (this.labelled[last]) {
				labels++;
			}
			containsLeaf |= last == this.leaf;
			count = collectUnvisitedChildren(last);
			if (count != 1) {
				break;
			}
			last = this.children[0];
		}
		if (count > 1) {
			order(count);
		}
		List<String> childSegments = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			childSegments.add(this.tree.at(this.children[i]).id());
		}
		// Reversed, so that the first child segment is walked first.
		for (int i = count - 1; i >= 0; i--) {
			push(this.children[i], depth + 1);
		}
		this.entryCount += length;
		String firstUserText = (firstUser != NONE) ? RowContent.of(this.tree.at(firstUser)).text() : null;
		this.segments.add(new TreeOutline.Segment(this.tree.at(first), this.tree.at(last), length, parentId, depth,
				childSegments, this.onActivePath[first], containsLeaf, firstUserText, labels, idOrNull(firstRow),
				idOrNull((firstRow != NONE) ? lastRow(firstRow, last) : NONE)));
	}

	/** Children not reached yet, into {@link #children}, marked as reached: as {@link TreeRowsBuilder} takes them. */
	private int collectUnvisitedChildren(int position) {
		int count = 0;
		for (int child = this.tree.firstChildOf(position); child != NONE; child = this.tree.nextSiblingOf(child)) {
			if (!this.visited[child]) {
				this.visited[child] = true;
				if (count == this.children.length) {
					this.children = Arrays.copyOf(this.children, count * 2);
				}
				this.children[count++] = child;
			}
		}
		return count;
	}

	/** {@link TreeRowsBuilder}'s sibling order: by timestamp, stable; then the one on the active path first. */
	private void order(int count) {
		Integer[] sorted = new Integer[count];
		for (int i = 0; i < count; i++) {
			sorted[i] = this.children[i];
		}
		Arrays.sort(sorted, Comparator.comparingLong(child -> this.tree.at(child).timestamp()));
		int next = 0;
		for (Integer child : sorted) {
			if (this.onActivePath[child]) {
				this.children[next++] = child;
			}
		}
		for (Integer child : sorted) {
			if (!this.onActivePath[child]) {
				this.children[next++] = child;
			}
		}
	}

	/**
	 * The segment's last row, walking up from its last entry; within a segment each entry's parent is the one before
	 * it, and the walk stops at the first row at the latest.
	 */
	private int lastRow(int firstRow, int last) {
		int position = last;
		while (position != firstRow && !isRow(position)) {
			position = this.tree.parentOf(position);
		}
		return position;
	}

	/**
	 * Whether the entry is a row of the {@code all} view. §10 hides only assistant messages (those with nothing to
	 * read, unless they are the leaf), so only those are scanned, and {@link RowContent} decides as the rows do.
	 */
	private boolean isRow(int position) {
		EntryLine entry = this.tree.at(position);
		if (position == this.leaf || !entry.isType(EntryTypes.MESSAGE) || !"assistant".equals(entry.messageRole())) {
			return true;
		}
		return !RowContent.of(entry).hiddenUnlessLeaf();
	}

	private @Nullable String idOrNull(int position) {
		return (position != NONE) ? this.tree.at(position).id() : null;
	}

	private void push(int position, int depth) {
		if (this.top == this.pending.length) {
			this.pending = Arrays.copyOf(this.pending, this.top * 2);
			this.pendingDepth = Arrays.copyOf(this.pendingDepth, this.top * 2);
		}
		this.pending[this.top] = position;
		this.pendingDepth[this.top] = depth;
		this.top++;
	}

}

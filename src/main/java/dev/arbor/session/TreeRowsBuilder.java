package dev.arbor.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Builds {@link TreeRows}, the selector view (docs/SESSION-FORMAT.md §10): the tree flattened depth-first;
 * among siblings the child whose subtree holds the leaf comes first and the others keep timestamp
 * order (stable for equal timestamps). Roots likewise: the leaf's root first, the others in
 * {@code getTree} order, which is file order followed by the entries only a cycle reaches, each
 * taken as {@link TreeViewBuilder} takes it so that every entry appears exactly once. When the leaf's
 * own walk up ends in a cycle, the entry where that walk stops is the leaf's root.
 * <p>
 * One iterative pass (chains of any depth). An entry is read only when its type can pass the filter,
 * and a message is scanned, never parsed into a tree. Rows that are not returned still count in
 * {@code total}, and they pass their depth on unchanged, so returned rows have no gaps in depth.
 */
final class TreeRowsBuilder {

	private static final int NONE = -1;

	private final SessionTree tree;

	private final RowFilter filter;

	private final RowQuery query;

	private final int leaf;

	private final boolean[] onActivePath;

	private final boolean[] visited;

	private final List<TreeRow> rows = new ArrayList<>();

	private int total;

	/** The depth-first stack: positions still to visit, and the depth each gets if it becomes a row. */
	private int[] pending = new int[64];

	private int[] pendingDepth = new int[64];

	private int top;

	private int[] siblings = new int[16];

	private TreeRowsBuilder(SessionTree tree, RowFilter filter, RowQuery query) {
		this.tree = tree;
		this.filter = filter;
		this.query = query;
		this.leaf = tree.leafPosition();
		this.onActivePath = new boolean[tree.size()];
		this.visited = new boolean[tree.size()];
	}

	static TreeRows build(SessionTree tree, RowFilter filter, @Nullable String query) {
		TreeRowsBuilder builder = new TreeRowsBuilder(tree, filter, RowQuery.parse(query));
		builder.visitRoots();
		return new TreeRows(filter, query, builder.total, builder.rows.size(), builder.rows);
	}

	private void visitRoots() {
		int[] activePath = (this.leaf != NONE) ? this.tree.pathPositions(this.leaf) : new int[0];
		for (int position : activePath) {
			this.onActivePath[position] = true;
		}
		if (activePath.length > 0) {
			visit(activePath[0]);
		}
		int size = this.tree.size();
		for (int i = 0; i < size; i++) {
			if (!this.visited[i] && this.tree.isLookedUp(i) && this.tree.parentOf(i) == NONE) {
				visit(i);
			}
		}
		// What no root reaches hangs off a cycle: its first entry in file order stands in as a root.
		for (int i = 0; i < size; i++) {
			if (!this.visited[i] && this.tree.isLookedUp(i)) {
				visit(i);
			}
		}
	}

	private void visit(int root) {
		this.visited[root] = true;
		push(root, 0);
		while (this.top > 0) {
			this.top--;
			int position = this.pending[this.top];
			int depth = this.pendingDepth[this.top];
			// Children are linked through parent[], so below the root the parent is the entry that pushed it.
			String parentId = (position != root) ? this.tree.at(this.tree.parentOf(position)).id() : null;
			boolean shown = maybeAddRow(position, depth, parentId);
			pushChildren(position, shown ? depth + 1 : depth);
		}
	}

	/** Adds the entry as a row when it passes the always-hidden rule, the filter and the search. */
	private boolean maybeAddRow(int position, int depth, @Nullable String parentId) {
		this.total++;
		EntryLine entry = this.tree.at(position);
		String label = this.tree.getLabel(entry.id());
		if (!this.filter.mayShow(entry.type(), label != null)) {
			return false;
		}
		RowContent content = RowContent.of(entry);
		boolean isLeaf = position == this.leaf;
		// §10: the leaf stays visible so the current position can always be seen.
		if (content.hiddenUnlessLeaf() && !isLeaf) {
			return false;
		}
		if (!this.filter.shows(entry.type(), content.role(), label != null)) {
			return false;
		}
		if (!this.query.isEmpty()
				&& !this.query.matches((label != null) ? label + " " + content.searchable() : content.searchable())) {
			return false;
		}
		this.rows.add(new TreeRow(entry.id(), parentId, depth, entry.type(), content.role(), content.text(), label,
				this.onActivePath[position], isLeaf));
		return true;
	}

	private void pushChildren(int position, int depth) {
		int count = 0;
		for (int child = this.tree.firstChildOf(position); child != NONE; child = this.tree.nextSiblingOf(child)) {
			if (!this.visited[child]) {
				this.visited[child] = true;
				if (count == this.siblings.length) {
					this.siblings = Arrays.copyOf(this.siblings, count * 2);
				}
				this.siblings[count++] = child;
			}
		}
		if (count > 1) {
			order(count);
		}
		// Reversed, so that the first sibling is popped first.
		for (int i = count - 1; i >= 0; i--) {
			push(this.siblings[i], depth);
		}
	}

	/** Timestamp order, stable; then the sibling on the active path moves to the front. */
	private void order(int count) {
		Integer[] sorted = new Integer[count];
		for (int i = 0; i < count; i++) {
			sorted[i] = this.siblings[i];
		}
		Arrays.sort(sorted, Comparator.comparingLong(child -> this.tree.at(child).timestamp()));
		int next = 0;
		for (Integer child : sorted) {
			if (this.onActivePath[child]) {
				this.siblings[next++] = child;
			}
		}
		for (Integer child : sorted) {
			if (!this.onActivePath[child]) {
				this.siblings[next++] = child;
			}
		}
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

package dev.arbor.session;

import java.util.Arrays;

/**
 * The whole tree in the selector's order before any filter (docs/SESSION-FORMAT.md#the-selector-rows): depth-first;
 * among siblings the child whose subtree holds the leaf comes first and the others keep timestamp order (stable for
 * equal timestamps). Roots likewise: the leaf's root first, the others in {@code getTree} order, which is file order
 * followed by the entries only a cycle reaches, each taken as {@link TreeViewBuilder} takes it so that every entry
 * appears exactly once. When the leaf's own walk up ends in a cycle, the entry where that walk stops is the leaf's
 * root.
 * <p>
 * It depends on the tree's shape and its leaf only, so every filter and search of one state of the tree shares
 * it. One iterative pass (chains of any depth); 13 bytes an entry.
 */
final class FlatOrder {

	static final int NONE = -1;

	/** File positions in display order. */
	final int[] order;

	/** By file position: the entry that placed it in the walk, {@link #NONE} for the walk's roots. */
	final int[] parent;

	/** By file position: the index in {@link #order}, {@link #NONE} for an earlier duplicate, which no lookup finds. */
	final int[] indexOf;

	/** By file position: whether the entry is the leaf or one of its ancestors. */
	final boolean[] onActivePath;

	private final SessionTree tree;

	private int length;

	private int[] pending = new int[64];

	private int top;

	private int[] siblings = new int[16];

	private FlatOrder(SessionTree tree) {
		int size = tree.size();
		this.tree = tree;
		this.order = new int[size];
		this.parent = new int[size];
		this.indexOf = new int[size];
		this.onActivePath = new boolean[size];
		Arrays.fill(this.parent, NONE);
		Arrays.fill(this.indexOf, NONE);
	}

	static FlatOrder of(SessionTree tree) {
		FlatOrder flat = new FlatOrder(tree);
		flat.visitRoots();
		return flat;
	}

	/** About the memory the order keeps: its arrays, 13 bytes an entry. */
	long bytes() {
		return 13L * this.order.length;
	}

	/** How many entries the order holds: every entry once, earlier duplicates left out. */
	int length() {
		return this.length;
	}

	private void visitRoots() {
		int leaf = this.tree.leafPosition();
		int[] activePath = (leaf != NONE) ? this.tree.pathPositions(leaf) : new int[0];
		for (int position : activePath) {
			this.onActivePath[position] = true;
		}
		if (activePath.length > 0) {
			visit(activePath[0]);
		}
		int size = this.tree.size();
		for (int i = 0; i < size; i++) {
			if (!placed(i) && this.tree.isLookedUp(i) && this.tree.parentOf(i) == NONE) {
				visit(i);
			}
		}
		// What no root reaches hangs off a cycle: its first entry in file order stands in as a root.
		for (int i = 0; i < size; i++) {
			if (!placed(i) && this.tree.isLookedUp(i)) {
				visit(i);
			}
		}
	}

	/** Placed in the order, or waiting on the stack to be. */
	private boolean placed(int position) {
		return this.indexOf[position] != NONE;
	}

	private void visit(int root) {
		this.indexOf[root] = Integer.MAX_VALUE;
		push(root);
		while (this.top > 0) {
			int position = this.pending[--this.top];
			this.indexOf[position] = this.length;
			this.order[this.length++] = position;
			pushChildren(position);
		}
	}

	private void pushChildren(int position) {
		int count = 0;
		for (int child = this.tree.firstChildOf(position); child != NONE; child = this.tree.nextSiblingOf(child)) {
			if (!placed(child)) {
				// Marked now, so that an entry a cycle reaches twice is placed once.
				this.indexOf[child] = Integer.MAX_VALUE;
				this.parent[child] = position;
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
			push(this.siblings[i]);
		}
	}

	/** Timestamp order, stable; then the sibling on the active path moves to the front. */
	private void order(int count) {
		Integer[] sorted = new Integer[count];
		for (int i = 0; i < count; i++) {
			sorted[i] = this.siblings[i];
		}
		Arrays.sort(sorted, (a, b) -> Long.compare(this.tree.at(a).timestamp(), this.tree.at(b).timestamp()));
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

	private void push(int position) {
		if (this.top == this.pending.length) {
			this.pending = Arrays.copyOf(this.pending, this.top * 2);
		}
		this.pending[this.top++] = position;
	}

}

package dev.arbor.session;

import java.util.Arrays;

/**
 * The tree's shape by file position (docs/SESSION-FORMAT.md#the-tree): each entry's parent, and each entry's children
 * in file order, held in {@code int} arrays that grow with the session, so the shape costs a few dozen bytes an entry.
 * Positions with a parent set may be set on several threads at once (each thread its own positions); everything else is
 * single-threaded.
 */
final class TreeLinks {

	static final int NONE = -1;

	/**
	 * The depth of an entry on or under a cycle of parents (docs/SESSION-FORMAT.md#the-tree), which no walk up ends at
	 * a root.
	 */
	static final int UNKNOWN_DEPTH = -1;

	/** While {@link #computeDepths} walks up through an entry. */
	private static final int ON_WALK = -2;

	private int[] parent;

	private int[] firstChild;

	private int[] lastChild;

	private int[] nextSibling;

	/**
	 * The entries on each entry's path, itself included (0 until computed): a navigation aligns two walks up by their
	 * depths, and counting them walked both whole paths first, most of a navigation's time at 400,000 entries.
	 */
	private int[] depth;

	TreeLinks(int capacity) {
		this.parent = new int[capacity];
		this.depth = new int[capacity];
		this.firstChild = new int[capacity];
		this.lastChild = new int[capacity];
		this.nextSibling = new int[capacity];
		Arrays.fill(this.firstChild, NONE);
		Arrays.fill(this.lastChild, NONE);
		Arrays.fill(this.nextSibling, NONE);
	}

	int parentOf(int position) {
		return this.parent[position];
	}

	int firstChildOf(int position) {
		return this.firstChild[position];
	}

	int nextSiblingOf(int position) {
		return this.nextSibling[position];
	}

	/**
	 * Sets where an entry hangs (docs/SESSION-FORMAT.md#the-tree): a parent that names no entry ({@link #NONE}), or the
	 * entry itself, makes a root.
	 */
	void setParent(int position, int parentPosition) {
		this.parent[position] = (parentPosition == position) ? NONE : parentPosition;
	}

	/** The entries on the path to the entry, itself included, or {@link #UNKNOWN_DEPTH}. */
	int depthOf(int position) {
		return this.depth[position];
	}

	/**
	 * Sets the depths of the first {@code size} entries, their parents set. Each walk up stops at the first entry
	 * whose depth is known, so the whole costs one step per entry, whatever order the file has its entries in.
	 */
	void computeDepths(int size) {
		int[] walk = new int[16];
		for (int i = 0; i < size; i++) {
			int steps = 0;
			int current = i;
			int above = 0;
			while (current != NONE) {
				int known = this.depth[current];
				if (known != 0) {
					// A walk that meets itself has gone round a cycle: it, and all that hangs under it, has no depth.
					above = (known == ON_WALK) ? UNKNOWN_DEPTH : known;
					break;
				}
				if (steps == walk.length) {
					walk = Arrays.copyOf(walk, steps * 2);
				}
				walk[steps++] = current;
				this.depth[current] = ON_WALK;
				current = this.parent[current];
			}
			while (steps > 0) {
				above = (above == UNKNOWN_DEPTH) ? UNKNOWN_DEPTH : above + 1;
				this.depth[walk[--steps]] = above;
			}
		}
	}

	/** Sets the depth of an entry appended after all others, its parent set. */
	void computeDepth(int position) {
		int p = this.parent[position];
		int above = (p == NONE) ? 0 : this.depth[p];
		this.depth[position] = (above == UNKNOWN_DEPTH) ? UNKNOWN_DEPTH : above + 1;
	}

	/** Adds an entry, its parent set, as the last child of its parent, if it has one. In file order. */
	void linkToParent(int position) {
		int p = this.parent[position];
		if (p == NONE) {
			return;
		}
		if (this.lastChild[p] == NONE) {
			this.firstChild[p] = position;
		}
		else {
			this.nextSibling[this.lastChild[p]] = position;
		}
		this.lastChild[p] = position;
	}

	/** Makes room for positions up to {@code capacity}; the first {@code size} are kept. */
	void grow(int capacity, int size) {
		this.parent = Arrays.copyOf(this.parent, capacity);
		this.depth = Arrays.copyOf(this.depth, capacity);
		this.firstChild = Arrays.copyOf(this.firstChild, capacity);
		this.lastChild = Arrays.copyOf(this.lastChild, capacity);
		this.nextSibling = Arrays.copyOf(this.nextSibling, capacity);
		Arrays.fill(this.firstChild, size, capacity, NONE);
		Arrays.fill(this.lastChild, size, capacity, NONE);
		Arrays.fill(this.nextSibling, size, capacity, NONE);
	}

}

package dev.arbor.session;

import java.util.Arrays;

/**
 * The tree's shape by file position (docs/SESSION-FORMAT.md §4): each entry's parent, and each entry's children in
 * file order, held in {@code int} arrays that grow with the session, so the shape costs a few dozen bytes an entry.
 * Positions with a parent set may be set on several threads at once (each thread its own positions); everything else
 * is single-threaded.
 */
final class TreeLinks {

	static final int NONE = -1;

	private int[] parent;

	private int[] firstChild;

	private int[] lastChild;

	private int[] nextSibling;

	TreeLinks(int capacity) {
		this.parent = new int[capacity];
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
	 * Sets where an entry hangs: §3, a parent that names no entry ({@link #NONE}), or the entry itself, makes a root.
	 */
	void setParent(int position, int parentPosition) {
		this.parent[position] = (parentPosition == position) ? NONE : parentPosition;
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
		this.firstChild = Arrays.copyOf(this.firstChild, capacity);
		this.lastChild = Arrays.copyOf(this.lastChild, capacity);
		this.nextSibling = Arrays.copyOf(this.nextSibling, capacity);
		Arrays.fill(this.firstChild, size, capacity, NONE);
		Arrays.fill(this.lastChild, size, capacity, NONE);
		Arrays.fill(this.nextSibling, size, capacity, NONE);
	}

}

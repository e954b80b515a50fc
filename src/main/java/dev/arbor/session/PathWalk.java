package dev.arbor.session;

import java.util.BitSet;

/**
 * The walk from an entry up its parents to the root (docs/SESSION-FORMAT.md §4), which a file's cycle cannot trap (§3):
 * a walk stops at the first repeated entry, and the check costs nothing until the walk outgrows the session.
 */
final class PathWalk {

	private PathWalk() {
	}

	/**
	 * Positions from the root down to {@code position}. Walks twice, first to count: a navigation on a long session
	 * walks paths of hundreds of thousands of entries, and growing an array as it went made it the most allocated
	 * thing in Arbor.
	 */
	static int[] from(SessionTree tree, int position) {
		int length = 0;
		for (int current = position; current != -1; current = tree.parentOf(current)) {
			if (++length > tree.size()) {
				return aroundCycle(tree, position);
			}
		}
		int[] path = new int[length];
		for (int current = position; current != -1; current = tree.parentOf(current)) {
			path[--length] = current;
		}
		return path;
	}

	/** The path of a walk that goes round a cycle: up to where it first repeats. */
	private static int[] aroundCycle(SessionTree tree, int position) {
		int[] walk = new int[tree.size() + 1];
		int current = position;
		for (int i = 0; i < walk.length; i++) {
			walk[i] = current;
			current = tree.parentOf(current);
		}
		int length = trimAtFirstRepeat(walk, walk.length, tree.size());
		int[] path = new int[length];
		for (int i = 0; i < length; i++) {
			path[i] = walk[length - 1 - i];
		}
		return path;
	}

	/** A walk longer than the session has gone round a cycle: cut it where it first repeats. */
	private static int trimAtFirstRepeat(int[] walk, int length, int size) {
		BitSet seen = new BitSet(size);
		for (int i = 0; i < length; i++) {
			if (seen.get(walk[i])) {
				return i;
			}
			seen.set(walk[i]);
		}
		return length;
	}

}

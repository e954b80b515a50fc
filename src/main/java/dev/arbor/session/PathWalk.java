package dev.arbor.session;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The walk from an entry up its parents to the root (docs/SESSION-FORMAT.md#the-tree), which a file's cycle cannot
 * trap: a walk stops at the first repeated entry, and the check costs nothing until the walk outgrows the session.
 */
final class PathWalk {

	private PathWalk() {
	}

	/**
	 * Positions from the root down to {@code position}, in an array of the path's length, which the tree keeps: a
	 * navigation on a long session walks paths of hundreds of thousands of entries, and growing an array as it went
	 * made it the most allocated thing in Arbor.
	 */
	static int[] from(SessionTree tree, int position) {
		int length = tree.depthOf(position);
		if (length == -1) {
			return aroundCycle(tree, position);
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

	/**
	 * Where the path to one entry forks from the path to another.
	 *
	 * @param abandoned the positions on the first path below the common ancestor, root first
	 * @param commonAncestor the deepest entry on both paths, or -1 when they share none
	 * @param targetParent the entry above the second one on its path, or -1 when it is a root there
	 */
	record Fork(int[] abandoned, int commonAncestor, int targetParent) {
	}

	/**
	 * How {@code from}'s path (none for -1) forks from {@code to}'s, allocating only the abandoned part: the two
	 * walks are aligned by depth and go up together until they meet. A walk round a cycle compares whole paths.
	 */
	static Fork fork(SessionTree tree, int from, int to) {
		int fromDepth = (from != -1) ? tree.depthOf(from) : 0;
		int toDepth = tree.depthOf(to);
		if (fromDepth == -1 || toDepth == -1) {
			return forkAroundCycle(tree, from, to);
		}
		int a = from;
		int b = to;
		int depth = fromDepth;
		for (int d = toDepth; d > depth; d--) {
			b = tree.parentOf(b);
		}
		for (; depth > toDepth; depth--) {
			a = tree.parentOf(a);
		}
		while (a != b) { // at equal depths: under different roots, both reach -1 together
			a = tree.parentOf(a);
			b = tree.parentOf(b);
			depth--;
		}
		int[] abandoned = new int[fromDepth - depth];
		int current = from;
		for (int i = abandoned.length - 1; i >= 0; i--) {
			abandoned[i] = current;
			current = tree.parentOf(current);
		}
		return new Fork(abandoned, a, tree.parentOf(to));
	}

	/** {@link #fork} when a walk goes round a cycle: the common prefix of the whole paths, else their deepest shared entry. */
	private static Fork forkAroundCycle(SessionTree tree, int from, int to) {
		int[] fromPath = (from != -1) ? from(tree, from) : new int[0];
		int[] toPath = from(tree, to);
		int common = Arrays.mismatch(fromPath, toPath);
		if (common == -1) {
			common = fromPath.length;
		}
		if (common == 0 && fromPath.length > 0) {
			common = afterDeepestShared(fromPath, toPath, tree.size()); // walks round a cycle start anywhere
		}
		return new Fork(Arrays.copyOfRange(fromPath, common, fromPath.length), (common > 0) ? fromPath[common - 1] : -1,
				(toPath.length > 1) ? toPath[toPath.length - 2] : -1);
	}

	/** The position in the first path after the deepest of its entries that is also on the second, or 0. */
	private static int afterDeepestShared(int[] fromPath, int[] toPath, int size) {
		int[] afterInFrom = new int[size]; // 0: not on the first path
		for (int i = 0; i < fromPath.length; i++) {
			afterInFrom[fromPath[i]] = i + 1;
		}
		for (int i = toPath.length - 1; i >= 0; i--) {
			if (afterInFrom[toPath[i]] != 0) {
				return afterInFrom[toPath[i]];
			}
		}
		return 0;
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

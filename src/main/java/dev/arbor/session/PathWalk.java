package dev.arbor.session;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The walk from an entry up its parents to the root (docs/SESSION-FORMAT.md §4), which a file's cycle cannot trap (§3):
 * a walk stops at the first repeated entry, and the check costs nothing until the walk outgrows the session.
 */
final class PathWalk {

	private PathWalk() {
	}

	/** Positions from the root down to {@code position}. */
	static int[] from(SessionTree tree, int position) {
		int[] reversed = new int[16];
		int length = 0;
		for (int current = position; current != -1; current = tree.parentOf(current)) {
			if (length > tree.size()) {
				length = trimAtFirstRepeat(reversed, length, tree.size());
				break;
			}
			if (length == reversed.length) {
				reversed = Arrays.copyOf(reversed, length * 2);
			}
			reversed[length++] = current;
		}
		int[] path = new int[length];
		for (int i = 0; i < length; i++) {
			path[i] = reversed[length - 1 - i];
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

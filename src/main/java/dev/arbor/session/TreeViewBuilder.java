package dev.arbor.session;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Builds {@link SessionTreeView}: roots in file order, children by timestamp (docs/SESSION-FORMAT.md#the-tree).
 * Entries that no root reaches lie on a cycle in the file or below one: each such part is shown from
 * the cycle entry that the first unreached entry in file order leads up to, so that every entry still
 * appears exactly once, under its own parent. Iterative: chains of any depth. Works on positions in int arrays and
 * makes no object per entry.
 */
final class TreeViewBuilder {

	/** Children lists up to this long are sorted in place; longer ones (rare) through a stable library sort. */
	private static final int INSERTION_SORT_MAX = 32;

	private final SessionTree tree;

	private final boolean[] visited;

	private final int[] shownParent;

	/** The children a position got when it was visited: {@code kids[kidStart[p]]}, {@code kidCount[p]} of them. */
	private final int[] kidStart;

	private final int[] kidCount;

	private final int[] kids;

	private int kidsUsed;

	private int[] stack = new int[16];

	private TreeViewBuilder(SessionTree tree) {
		int size = tree.size();
		this.tree = tree;
		this.visited = new boolean[size];
		this.shownParent = new int[size];
		Arrays.fill(this.shownParent, -1);
		this.kidStart = new int[size];
		this.kidCount = new int[size];
		this.kids = new int[size]; // each position is somebody's child at most once
	}

	static SessionTreeView build(SessionTree tree) {
		return new TreeViewBuilder(tree).build();
	}

	private SessionTreeView build() {
		int size = this.tree.size();
		int[] rootPositions = new int[16];
		int rootCount = 0;
		for (int i = 0; i < size; i++) {
			if (this.tree.parentOf(i) == -1 && this.tree.isLookedUp(i)) {
				rootPositions = add(rootPositions, rootCount++, i);
				visit(i);
			}
		}
		for (int i = 0; i < size; i++) {
			if (!this.visited[i] && this.tree.isLookedUp(i)) {
				// The walk up from an unreached entry ends in a cycle; start at the entry where it first repeats,
				// so an entry hanging off the cycle still shows under its parent.
				int root = this.tree.parentOf(this.tree.pathPositions(i)[0]);
				if (root == -1 || this.visited[root]) {
					root = i;
				}
				rootPositions = add(rootPositions, rootCount++, root);
				visit(root);
			}
		}
		return number(rootPositions, rootCount);
	}

	/** The view, its nodes numbered in file order. */
	private SessionTreeView number(int[] rootPositions, int rootCount) {
		int size = this.tree.size();
		int[] nodeOf = new int[size];
		int nodes = 0;
		for (int i = 0; i < size; i++) {
			nodeOf[i] = this.visited[i] ? nodes++ : -1;
		}
		EntryLine[] entries = new EntryLine[nodes];
		int[] parents = new int[nodes];
		int[] childStart = new int[nodes + 1];
		int[] children = new int[this.kidsUsed];
		int next = 0;
		for (int i = 0; i < size; i++) {
			int node = nodeOf[i];
			if (node != -1) {
				entries[node] = this.tree.at(i);
				parents[node] = (this.shownParent[i] != -1) ? nodeOf[this.shownParent[i]] : -1;
				childStart[node] = next;
				for (int k = this.kidStart[i]; k < this.kidStart[i] + this.kidCount[i]; k++) {
					children[next++] = nodeOf[this.kids[k]];
				}
			}
		}
		childStart[nodes] = next;
		int[] roots = new int[rootCount];
		for (int r = 0; r < rootCount; r++) {
			roots[r] = nodeOf[rootPositions[r]];
		}
		return new SessionTreeView(this.tree.leafId(), entries, parents, childStart, children, labels(nodeOf, nodes),
				roots);
	}

	/** Each node's resolved label, or {@code null} when none has one: labels are few, so they are looked up by target. */
	private String @Nullable [] labels(int[] nodeOf, int nodes) {
		Map<String, Labels.Label> resolved = this.tree.resolvedLabels();
		if (resolved.isEmpty()) {
			return null;
		}
		String[] labels = new String[nodes];
		resolved.forEach((targetId, label) -> {
			int position = this.tree.positionOf(targetId);
			if (position != -1 && nodeOf[position] != -1) {
				labels[nodeOf[position]] = label.label();
			}
		});
		return labels;
	}

	private void visit(int root) {
		int pending = 0;
		this.visited[root] = true;
		this.stack = add(this.stack, pending++, root);
		while (pending > 0) {
			int node = this.stack[--pending];
			int start = this.kidsUsed;
			for (int child = this.tree.firstChildOf(node); child != -1; child = this.tree.nextSiblingOf(child)) {
				if (!this.visited[child]) {
					this.visited[child] = true;
					this.shownParent[child] = node;
					this.kids[this.kidsUsed++] = child;
				}
			}
			int count = this.kidsUsed - start;
			sortByTimestamp(start, count);
			this.kidStart[node] = start;
			this.kidCount[node] = count;
			for (int k = start; k < start + count; k++) {
				this.stack = add(this.stack, pending++, this.kids[k]);
			}
		}
	}

	/** Stable: equal timestamps keep file order. */
	private void sortByTimestamp(int start, int count) {
		if (count <= INSERTION_SORT_MAX) {
			for (int i = start + 1; i < start + count; i++) {
				int position = this.kids[i];
				long timestamp = this.tree.at(position).timestamp();
				int j = i - 1;
				while (j >= start && this.tree.at(this.kids[j]).timestamp() > timestamp) {
					this.kids[j + 1] = this.kids[j];
					j--;
				}
				this.kids[j + 1] = position;
			}
			return;
		}
		Integer[] sorted = new Integer[count];
		for (int i = 0; i < count; i++) {
			sorted[i] = this.kids[start + i];
		}
		Arrays.sort(sorted, Comparator.comparingLong(position -> this.tree.at(position).timestamp()));
		for (int i = 0; i < count; i++) {
			this.kids[start + i] = sorted[i];
		}
	}

	private static int[] add(int[] array, int index, int value) {
		int[] target = (index < array.length) ? array : Arrays.copyOf(array, array.length * 2);
		target[index] = value;
		return target;
	}

}

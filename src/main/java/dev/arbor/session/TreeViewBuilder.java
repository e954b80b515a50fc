package dev.arbor.session;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * Builds {@link SessionTreeView}: roots in file order, children by timestamp (docs/SESSION-FORMAT.md §4).
 * Entries that no root reaches lie on a cycle in the file or below one: each such part is shown from
 * the cycle entry that the first unreached entry in file order leads up to, so that every entry still
 * appears exactly once, under its own parent. Iterative: chains of any depth.
 */
final class TreeViewBuilder {

	private TreeViewBuilder() {
	}

	static SessionTreeView build(SessionTree tree) {
		int size = tree.size();
		boolean[] visited = new boolean[size];
		@SuppressWarnings("unchecked")
		List<String>[] childIds = new List[size];
		int[] shownParent = new int[size];
		Arrays.fill(shownParent, -1);
		List<String> rootIds = new ArrayList<>();
		for (int i = 0; i < size; i++) {
			if (tree.isLookedUp(i) && tree.parentOf(i) == -1) {
				rootIds.add(tree.at(i).id());
				visit(tree, i, visited, childIds, shownParent);
			}
		}
		for (int i = 0; i < size; i++) {
			if (tree.isLookedUp(i) && !visited[i]) {
				// The walk up from an unreached entry ends in a cycle; start at the entry where it first repeats,
				// so an entry hanging off the cycle still shows under its parent.
				int root = tree.parentOf(tree.pathPositions(i)[0]);
				if (root == -1 || visited[root]) {
					root = i;
				}
				rootIds.add(tree.at(root).id());
				visit(tree, root, visited, childIds, shownParent);
			}
		}
		List<SessionTreeView.Node> nodes = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			if (visited[i]) {
				EntryLine entry = tree.at(i);
				String parentId = (shownParent[i] != -1) ? tree.at(shownParent[i]).id() : null;
				nodes.add(new SessionTreeView.Node(entry, parentId, tree.getLabel(entry.id()), childIds[i]));
			}
		}
		return new SessionTreeView(tree.leafId(), List.copyOf(rootIds), nodes);
	}

	private static void visit(SessionTree tree, int root, boolean[] visited, List<String>[] childIds,
			int[] shownParent) {
		Deque<Integer> pending = new ArrayDeque<>();
		visited[root] = true;
		pending.push(root);
		while (!pending.isEmpty()) {
			int node = pending.pop();
			List<Integer> children = new ArrayList<>(2);
			for (int child = tree.firstChildOf(node); child != -1; child = tree.nextSiblingOf(child)) {
				if (!visited[child]) {
					visited[child] = true;
					shownParent[child] = node;
					children.add(child);
				}
			}
			children.sort(Comparator.comparingLong(child -> tree.at(child).timestamp()));
			List<String> ids = new ArrayList<>(children.size());
			for (int child : children) {
				ids.add(tree.at(child).id());
				pending.push(child);
			}
			childIds[node] = List.copyOf(ids);
		}
	}

}

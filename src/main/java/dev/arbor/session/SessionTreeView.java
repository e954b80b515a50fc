package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * {@code getTree()}: every entry once, flat (a nested document would break on deep chains).
 *
 * @param leafId the leaf when the view was taken
 * @param rootIds roots in file order
 * @param nodes one node per entry id, in file order
 */
public record SessionTreeView(@Nullable String leafId, List<String> rootIds, List<Node> nodes) {

	/**
	 * One entry of the tree.
	 *
	 * @param entry the stored entry
	 * @param parentId the node it hangs under in this view; {@code null} for a root, including an entry whose
	 * stored {@code parentId} names no entry or closes a cycle
	 * @param label its resolved label
	 * @param childIds its children sorted by timestamp, stable for equal timestamps
	 */
	public record Node(EntryLine entry, @Nullable String parentId, @Nullable String label, List<String> childIds) {

		public String id() {
			return this.entry.id();
		}

	}

}

package dev.arbor.session;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

import org.jspecify.annotations.Nullable;

/**
 * {@code getTree()}: every entry once, flat (a nested document would break on deep chains). Nodes are numbered in
 * file order and held in arrays, a few dozen bytes a node: a writer walks them by number ({@link #entry},
 * {@link #parent}, {@link #label}, {@link #child}) and makes no object per node; {@link #nodes} gives them as
 * records. Immutable: it refers only to entries, which never change, so it can be written after the session's lock
 * is released.
 */
public final class SessionTreeView {

	private final @Nullable String leafId;

	private final EntryLine[] entries;

	private final int[] parents;

	/** The children of node {@code n} are {@code children[childStart[n]]} up to {@code childStart[n + 1]}. */
	private final int[] childStart;

	private final int[] children;

	/** Per node, or {@code null} when no node has a label. */
	private final String @Nullable [] labels;

	private final int[] roots;

	/**
	 * @param leafId the leaf when the view was taken
	 * @param entries each node's entry, in file order
	 * @param parents each node's parent in this view (a node number), or -1 for a root
	 * @param childStart where each node's children start in {@code children}, and where they end after the last
	 * @param children the children of each node in turn, sorted by timestamp, stable for equal timestamps
	 * @param labels each node's resolved label, or {@code null} when none has one
	 * @param roots the roots in file order
	 */
	SessionTreeView(@Nullable String leafId, EntryLine[] entries, int[] parents, int[] childStart, int[] children,
			String @Nullable [] labels, int[] roots) {
		this.leafId = leafId;
		this.entries = entries;
		this.parents = parents;
		this.childStart = childStart;
		this.children = children;
		this.labels = labels;
		this.roots = roots;
	}

	/** The leaf when the view was taken. */
	public @Nullable String leafId() {
		return this.leafId;
	}

	/** The number of nodes: one per entry id. */
	public int size() {
		return this.entries.length;
	}

	/** The stored entry of a node. */
	public EntryLine entry(int node) {
		return this.entries[node];
	}

	/**
	 * The node a node hangs under in this view, or -1 for a root, including an entry whose stored {@code parentId}
	 * names no entry or closes a cycle.
	 */
	public int parent(int node) {
		return this.parents[node];
	}

	/** A node's resolved label. */
	public @Nullable String label(int node) {
		return (this.labels != null) ? this.labels[node] : null;
	}

	/** How many children a node has. */
	public int childCount(int node) {
		return this.childStart[node + 1] - this.childStart[node];
	}

	/** A node's {@code index}th child by timestamp, stable for equal timestamps. */
	public int child(int node, int index) {
		return this.children[this.childStart[node] + index];
	}

	/** The number of roots. */
	public int rootCount() {
		return this.roots.length;
	}

	/** The {@code index}th root in file order. */
	public int root(int index) {
		return this.roots[index];
	}

	/** The roots' ids in file order. */
	public List<String> rootIds() {
		return new Ids(this.roots.length) {
			@Override
			String id(int index) {
				return entry(root(index)).id();
			}
		};
	}

	/** One node per entry id, in file order. */
	public List<Node> nodes() {
		return new Nodes();
	}

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

	private final class Nodes extends AbstractList<Node> implements RandomAccess {

		@Override
		public Node get(int node) {
			int parent = parent(Objects.checkIndex(node, size()));
			List<String> childIds = new Ids(childCount(node)) {
				@Override
				String id(int index) {
					return entry(child(node, index)).id();
				}
			};
			return new Node(entry(node), (parent != -1) ? entry(parent).id() : null, label(node), List.copyOf(childIds));
		}

		@Override
		public int size() {
			return SessionTreeView.this.size();
		}

	}

	private abstract static class Ids extends AbstractList<String> implements RandomAccess {

		private final int size;

		Ids(int size) {
			this.size = size;
		}

		@Override
		public String get(int index) {
			return id(Objects.checkIndex(index, this.size));
		}

		abstract String id(int index);

		@Override
		public int size() {
			return this.size;
		}

	}

}

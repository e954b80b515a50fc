package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * An outline of the tree, for sessions too big to send whole (docs/API.md#tree): every chain of single-child entries
 * folded into one {@link Segment}, so that its size grows with the branch points, not with the entries. A segment is
 * known by its first entry's id. Flat, as {@code getTree} is: a nested document would break on deep trees.
 *
 * @param leafId the leaf when the outline was taken
 * @param entryCount every entry of the tree once (docs/SESSION-FORMAT.md#the-tree: an earlier entry whose id a later
 * one repeats is not in the tree); the segments' lengths add up to it
 * @param segments depth-first, in the order of the selector's rows under the {@code all} filter
 * (docs/SESSION-FORMAT.md#the-selector-rows): the segment holding the leaf before its siblings, the others by
 * timestamp; expanding each in turn gives exactly those rows
 */
public record TreeOutline(@Nullable String leafId, int entryCount, List<Segment> segments) {

	public TreeOutline {
		segments = List.copyOf(segments);
	}

	/** The outline of a tree as it is now. O(entries), iterative: chains of any depth. */
	public static TreeOutline of(SessionTree tree) {
		return tree.getOutline();
	}

	/**
	 * A maximal chain of entries in which every entry but the last has exactly one child. A root or a child of a
	 * branch point starts one; a branch point or an entry without children ends one.
	 *
	 * @param first its first entry
	 * @param last its last entry: a branch point, or an entry without children
	 * @param length how many entries it holds, both ends included
	 * @param parentId the branch point it hangs under (the {@code last} of its parent segment); {@code null} for a
	 * root, including an entry whose stored {@code parentId} names no entry or closes a cycle
	 * @param depth how many segments lie above it: roots are 0
	 * @param childSegments the first entry of each segment below it, in row order: the one holding the leaf first,
	 * the others by timestamp; empty when {@code last} has no children
	 * @param onActivePath whether any of its entries is the leaf or one of the leaf's ancestors
	 * @param containsLeaf whether the leaf is one of its entries
	 * @param firstUserText the text of its first {@code user} message as its row shows it after {@code user: } (one line, at most
	 * {@value MessageText#LIMIT} characters); {@code null} when it holds none
	 * @param labelCount how many of its entries carry a label
	 * @param firstRowId its first entry that is a row of the {@code all} view, which leaves out tool-call-only
	 * assistant messages other than the leaf (docs/SESSION-FORMAT.md#the-selector-rows); {@code null} when none of its
	 * entries is a row
	 * @param lastRowId its last entry that is a row of the {@code all} view; {@code null} when none is
	 */
	public record Segment(EntryLine first, EntryLine last, int length, @Nullable String parentId, int depth,
			List<String> childSegments, boolean onActivePath, boolean containsLeaf, @Nullable String firstUserText,
			int labelCount, @Nullable String firstRowId, @Nullable String lastRowId) {

		public Segment {
			childSegments = List.copyOf(childSegments);
		}

	}

}

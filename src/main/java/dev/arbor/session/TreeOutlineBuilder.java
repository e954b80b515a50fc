package dev.arbor.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a {@link TreeOutline} from the tree's {@link FlatOrder}, the order the selector's rows come in: a chain of
 * single children is a run of consecutive entries of that order, so each segment is one run, and the segments come
 * depth-first in the order of their first entries. One pass over the order, plus a scan of each segment's entries
 * until its first user message and from each end to its first and last row.
 */
final class TreeOutlineBuilder {

	private static final int NONE = FlatOrder.NONE;

	private final SessionTree tree;

	private final FlatOrder flat;

	private final int leaf;

	private TreeOutlineBuilder(SessionTree tree, FlatOrder flat) {
		this.tree = tree;
		this.flat = flat;
		this.leaf = tree.leafPosition();
	}

	static TreeOutline build(SessionTree tree, FlatOrder flat) {
		return new TreeOutlineBuilder(tree, flat).outline();
	}

	private TreeOutline outline() {
		int length = this.flat.length();
		int[] order = this.flat.order;
		int[] childCount = new int[this.tree.size()];
		for (int i = 0; i < length; i++) {
			int parent = this.flat.parent[order[i]];
			if (parent != NONE) {
				childCount[parent]++;
			}
		}
		boolean[] labelled = labelled();
		// By file position: the index of the segment holding the entry.
		int[] segmentOf = new int[this.tree.size()];
		List<int[]> bounds = new ArrayList<>();
		List<List<String>> children = new ArrayList<>();
		int[] depth = new int[16];
		for (int i = 0; i < length; i++) {
			int position = order[i];
			int parent = this.flat.parent[position];
			if (parent == NONE || childCount[parent] != 1) {
				int segment = bounds.size();
				bounds.add(new int[] { i, i });
				children.add(new ArrayList<>());
				if (segment == depth.length) {
					depth = Arrays.copyOf(depth, segment * 2);
				}
				depth[segment] = (parent == NONE) ? 0 : depth[segmentOf[parent]] + 1;
				if (parent != NONE) {
					children.get(segmentOf[parent]).add(this.tree.at(position).id());
				}
			}
			int segment = bounds.size() - 1;
			bounds.get(segment)[1] = i;
			segmentOf[position] = segment;
		}
		List<TreeOutline.Segment> segments = new ArrayList<>(bounds.size());
		for (int segment = 0; segment < bounds.size(); segment++) {
			segments.add(segment(bounds.get(segment)[0], bounds.get(segment)[1], depth[segment],
					children.get(segment), labelled));
		}
		return new TreeOutline(this.tree.leafId(), length, segments);
	}

	private TreeOutline.Segment segment(int start, int end, int depth, List<String> childSegments,
			boolean[] labelled) {
		int[] order = this.flat.order;
		int first = order[start];
		int parent = this.flat.parent[first];
		int firstUser = NONE;
		int labels = 0;
		boolean containsLeaf = false;
		for (int i = start; i <= end; i++) {
			int position = order[i];
			if (firstUser == NONE && NavigationPlan.isUserMessage(this.tree.at(position))) {
				firstUser = position;
			}
			labels += labelled[position] ? 1 : 0;
			containsLeaf |= position == this.leaf;
		}
		int firstRow = start;
		while (firstRow <= end && !isRow(order[firstRow])) {
			firstRow++;
		}
		int lastRow = end;
		while (lastRow >= firstRow && !isRow(order[lastRow])) {
			lastRow--;
		}
		boolean anyRow = firstRow <= end;
		return new TreeOutline.Segment(this.tree.at(first), this.tree.at(order[end]), end - start + 1,
				(parent != NONE) ? this.tree.at(parent).id() : null, depth, childSegments,
				this.flat.onActivePath[first], containsLeaf,
				(firstUser != NONE) ? PiText.normalize(this.tree.at(firstUser).messageText().text()) : null, labels,
				anyRow ? this.tree.at(order[firstRow]).id() : null, anyRow ? this.tree.at(order[lastRow]).id() : null);
	}

	private boolean[] labelled() {
		boolean[] labelled = new boolean[this.tree.size()];
		for (String target : this.tree.resolvedLabels().keySet()) {
			int position = this.tree.positionOf(target);
			if (position != NONE) {
				labelled[position] = true;
			}
		}
		return labelled;
	}

	/**
	 * Whether the entry is a row of the {@code all} view, which leaves out only assistants with nothing to read
	 * (docs/SESSION-FORMAT.md#the-selector-rows).
	 */
	private boolean isRow(int position) {
		return position == this.leaf || !this.tree.at(position).isSilentAssistant();
	}

}

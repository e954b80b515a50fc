package dev.arbor.session;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * Builds {@link TreeRows} from the tree's {@link FlatOrder}: which entries are rows (the always-hidden rule, the
 * filter, the search), then how upstream's selector draws the tree those rows form. Linear in the entries,
 * iterative; it reads no entry, only what {@link RowViews} keeps of them.
 * <p>
 * The drawing follows the rows' own tree, where a row's parent is its nearest ancestor that is a row too. A row
 * indents one column more than its parent when that parent has several children, and also when the parent is
 * itself such a child with a single child of its own and is not in column 0: so a branch's text starts one
 * column right of its connector, and a chain below stays where it started. Several roots hang from an unseen
 * root one column to the left of everything, and so are drawn in column 0 with no connector.
 */
final class TreeRowsBuilder {

	private static final int NONE = FlatOrder.NONE;

	private final SessionTree tree;

	private final FlatOrder flat;

	private final byte[] facts;

	private final String[] searchable;

	private final RowFilter filter;

	private final RowQuery query;

	/** By file position: whether the entry is folded, so that no entry below it is a row. */
	private final boolean[] folded;

	private TreeRowsBuilder(SessionTree tree, FlatOrder flat, byte[] facts, String[] searchable, RowFilter filter,
			RowQuery query, boolean[] folded) {
		this.tree = tree;
		this.flat = flat;
		this.facts = facts;
		this.searchable = searchable;
		this.filter = filter;
		this.query = query;
		this.folded = folded;
	}

	/**
	 * @param facts {@link RowFacts} by file position, known for every entry
	 * @param searchable by file position, the entry's searchable text in lower case, known for every entry when
	 * there is a query
	 * @param folded ids of the entries whose descendants are no rows; ids that name no entry fold nothing
	 */
	static TreeRows build(SessionTree tree, FlatOrder flat, byte[] facts, String[] searchable, RowFilter filter,
			RowQuery query, Set<String> folded, String version) {
		boolean[] foldedAt = new boolean[tree.size()];
		for (String id : folded) {
			tree.getEntry(id).ifPresent(entry -> foldedAt[tree.requirePosition(id)] = true);
		}
		TreeRowsBuilder builder = new TreeRowsBuilder(tree, flat, facts, searchable, filter, query, foldedAt);
		int[] rowOf = new int[tree.size()];
		Arrays.fill(rowOf, NONE);
		int[] rows = builder.selectRows(rowOf);
		TreeRows.Shape shape = builder.draw(rows, rowOf);
		return new TreeRows(tree, flat, filter, version, rows, rowOf, shape, builder.selected(rowOf, rows), foldedAt);
	}

	/**
	 * The rows in display order; fills {@code rowOf} (file position → row index). An entry below a folded one is
	 * no row, whether or not the folded one is (upstream's {@code applyFilter} walks the stored parents).
	 */
	private int[] selectRows(int[] rowOf) {
		int leaf = this.tree.leafPosition();
		int[] rows = new int[Math.min(this.flat.length(), 1024)];
		int count = 0;
		// By file position, filled in display order, where a parent comes before its children.
		boolean[] underFold = new boolean[this.tree.size()];
		for (int i = 0; i < this.flat.length(); i++) {
			int position = this.flat.order[i];
			int parent = this.flat.parent[position];
			underFold[position] = parent != NONE && (this.folded[parent] || underFold[parent]);
			if (!underFold[position] && shows(position, position == leaf)) {
				if (count == rows.length) {
					rows = Arrays.copyOf(rows, Math.min(this.flat.length(), count * 2));
				}
				rowOf[position] = count;
				rows[count++] = position;
			}
		}
		return Arrays.copyOf(rows, count);
	}

	private boolean shows(int position, boolean isLeaf) {
		byte entryFacts = this.facts[position];
		// docs/SESSION-FORMAT.md#the-selector-rows: the leaf stays visible so the current position can always be seen.
		if (RowFacts.has(entryFacts, RowFacts.HIDDEN_UNLESS_LEAF) && !isLeaf) {
			return false;
		}
		EntryLine entry = this.tree.at(position);
		String label = this.tree.getLabel(entry.id());
		if (!this.filter.shows(entryFacts, label != null)) {
			return false;
		}
		if (this.query.isEmpty()) {
			return true;
		}
		String searchable = this.searchable[position];
		return this.query.matchesLowerCase(
				(label != null) ? label.toLowerCase(Locale.ROOT) + " " + searchable : searchable);
	}

	private TreeRows.Shape draw(int[] rows, int[] rowOf) {
		int count = rows.length;
		int[] parentRow = visibleParents(rows, rowOf);
		int[] childCount = new int[count];
		int[] lastChild = new int[count];
		int roots = 0;
		int lastRoot = NONE;
		for (int row = 0; row < count; row++) {
			int parent = parentRow[row];
			if (parent == NONE) {
				roots++;
				lastRoot = row;
			}
			else {
				childCount[parent]++;
				lastChild[parent] = row;
			}
		}
		boolean multipleRoots = roots > 1;
		// Upstream's internal indentation counts the unseen root's column; depth is what is drawn.
		int[] indent = new int[count];
		int[] depth = new int[count];
		byte[] connector = new byte[count];
		int[] guideOwner = new int[count];
		for (int row = 0; row < count; row++) {
			int parent = parentRow[row];
			if (parent == NONE) {
				indent[row] = multipleRoots ? 1 : 0;
				guideOwner[row] = NONE;
			}
			else {
				boolean branched = childCount[parent] > 1;
				boolean parentJustBranched = (parentRow[parent] == NONE) ? multipleRoots
						: childCount[parentRow[parent]] > 1;
				boolean deeper = branched || (parentJustBranched && indent[parent] > 0);
				indent[row] = deeper ? indent[parent] + 1 : indent[parent];
				if (branched) {
					connector[row] = (lastChild[parent] == row) ? TreeRows.Shape.LAST : TreeRows.Shape.BRANCH;
				}
				guideOwner[row] = (connector[parent] != 0) ? parent : guideOwner[parent];
			}
			depth[row] = multipleRoots ? Math.max(0, indent[row] - 1) : indent[row];
		}
		return new TreeRows.Shape(parentRow, depth, connector, guideOwner, childCount);
	}

	/** By row: the row of its nearest ancestor that is a row, {@link #NONE} for the view's roots. */
	private int[] visibleParents(int[] rows, int[] rowOf) {
		// By file position, in display order so that a parent is done before its children.
		int[] nearestRowAbove = new int[this.tree.size()];
		for (int i = 0; i < this.flat.length(); i++) {
			int position = this.flat.order[i];
			int parent = this.flat.parent[position];
			if (parent == NONE) {
				nearestRowAbove[position] = NONE;
			}
			else {
				nearestRowAbove[position] = (rowOf[parent] != NONE) ? rowOf[parent] : nearestRowAbove[parent];
			}
		}
		int[] parentRow = new int[rows.length];
		for (int row = 0; row < rows.length; row++) {
			parentRow[row] = nearestRowAbove[rows[row]];
		}
		return parentRow;
	}

	/** Upstream's first selection: the leaf, else its nearest ancestor that is a row, else the last row. */
	private int selected(int[] rowOf, int[] rows) {
		return TreeRows.nearestRow(this.flat, rowOf, this.tree.leafPosition(), rows.length);
	}

}

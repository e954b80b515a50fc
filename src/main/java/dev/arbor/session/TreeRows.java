package dev.arbor.session;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The selector view of one state of a session (docs/SESSION-FORMAT.md#the-selector-rows): the tree flattened
 * depth-first, filtered and searched, with how each row is drawn and which row is selected. Held as arrays of
 * {@code int}s, about 25 bytes a row; a {@link TreeRow} is made only for the rows asked for, so a page costs what the
 * page holds.
 * <p>
 * Valid for the state of the tree it was built from, which {@link #version()} names; read it under the same
 * lock as the tree.
 */
public final class TreeRows {

	private static final int NONE = FlatOrder.NONE;

	private final SessionTree tree;

	private final FlatOrder flat;

	private final RowFilter filter;

	private final String version;

	private final int[] rows;

	private final int[] rowOf;

	private final Shape shape;

	private final int selected;

	private final int leaf;

	/** By file position: whether the view was asked to fold the entry. */
	private final boolean[] folded;

	TreeRows(SessionTree tree, FlatOrder flat, RowFilter filter, String version, int[] rows, int[] rowOf, Shape shape,
			int selected, boolean[] folded) {
		this.tree = tree;
		this.flat = flat;
		this.filter = filter;
		this.version = version;
		this.rows = rows;
		this.rowOf = rowOf;
		this.shape = shape;
		this.selected = selected;
		this.leaf = tree.leafPosition();
		this.folded = folded;
	}

	/** About the memory the view keeps besides the order it shares: its arrays, about 25 bytes a row. */
	long bytes() {
		return 5L * this.rowOf.length + 21L * this.rows.length;
	}

	public RowFilter filter() {
		return this.filter;
	}

	/** Rows before filter and search: every entry of the tree once. */
	public int total() {
		return this.flat.length();
	}

	/** Rows after filter and search. */
	public int matched() {
		return this.rows.length;
	}

	/** The index of the selected row; -1 when the view has no rows. */
	public int selectedIndex() {
		return this.selected;
	}

	/**
	 * Names the state of the session this view shows: it changes with every append, leaf move and label, so two
	 * pages with the same version come from the same view.
	 */
	public String version() {
		return this.version;
	}

	/** The rows {@code from} (inclusive) to {@code to} (exclusive), in display order. */
	public List<TreeRow> rows(int from, int to) {
		List<TreeRow> page = new ArrayList<>(Math.max(0, to - from));
		for (int row = from; row < to; row++) {
			page.add(row(row));
		}
		return page;
	}

	/** The entry id of the row at this index. */
	public String idAt(int index) {
		return this.tree.at(this.rows[index]).id();
	}

	/** The index of the row of this entry; -1 when the entry is not a row of this view. */
	public int indexOfRow(String entryId) {
		int position = this.tree.positionOf(entryId);
		return (position != NONE) ? this.rowOf[position] : NONE;
	}

	/**
	 * Where a window around an entry is centred, as upstream places its selection: the entry's row, else its
	 * nearest ancestor that is a row, else the last row; -1 when the view has no rows.
	 *
	 * @throws EntryNotFoundException for an unknown entry
	 */
	public int indexAround(String entryId) {
		return nearestRow(this.flat, this.rowOf, this.tree.requirePosition(entryId), this.rows.length);
	}

	/**
	 * The first row at or after this entry in display order: the entry's own row, or when the view leaves the
	 * entry out, the row that follows where it would be; {@link #matched()} when no row follows.
	 *
	 * @throws EntryNotFoundException for an unknown entry
	 */
	public int indexFrom(String entryId) {
		int target = this.flat.indexOf[this.tree.requirePosition(entryId)];
		int low = 0;
		int high = this.rows.length;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (this.flat.indexOf[this.rows[middle]] < target) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

	/** The row of the entry or of its nearest ancestor that is a row, else the last row; -1 with no rows. */
	static int nearestRow(FlatOrder flat, int[] rowOf, int position, int rowCount) {
		for (int current = position; current != NONE; current = flat.parent[current]) {
			if (rowOf[current] != NONE) {
				return rowOf[current];
			}
		}
		return rowCount - 1;
	}

	private TreeRow row(int row) {
		int position = this.rows[row];
		EntryLine entry = this.tree.at(position);
		int parent = this.flat.parent[position];
		int visibleParent = this.shape.parentRow[row];
		Labels.Label label = this.tree.resolvedLabels().get(entry.id());
		String text = RowContent.text(entry, id -> ToolCallText.callOf(this.tree, this.flat, position, id));
		return new TreeRow(row, entry.id(), (parent != NONE) ? this.tree.at(parent).id() : null,
				(visibleParent != NONE) ? this.tree.at(this.rows[visibleParent]).id() : null, this.shape.depth[row],
				connector(row), guides(row), this.shape.childCount[row], entry.type(), entry.messageRole(), text,
				(label != null) ? label.label() : null, (label != null) ? label.timestamp() : null,
				this.flat.onActivePath[position], position == this.leaf, row == this.selected, this.folded[position]);
	}

	private TreeRow.@Nullable Connector connector(int row) {
		return switch (this.shape.connector[row]) {
			case Shape.BRANCH -> TreeRow.Connector.BRANCH;
			case Shape.LAST -> TreeRow.Connector.LAST;
			default -> null;
		};
	}

	/**
	 * The columns with a vertical line: one for each ancestor with a connector that a later sibling follows, in the
	 * column of that connector. Walks ancestors with connectors only, so it costs the nesting of branches, not the
	 * length of chains.
	 */
	private List<Integer> guides(int row) {
		List<Integer> guides = new ArrayList<>();
		for (int owner = this.shape.guideOwner[row]; owner != NONE; owner = this.shape.guideOwner[owner]) {
			if (this.shape.connector[owner] == Shape.BRANCH) {
				guides.add(0, Math.max(0, this.shape.depth[owner] - 1));
			}
		}
		return guides;
	}

	/**
	 * How the rows are drawn, by row index.
	 *
	 * @param parentRow the row of the nearest ancestor that is a row, -1 for roots
	 * @param depth the column the row's text starts in
	 * @param connector {@link #BRANCH}, {@link #LAST} or 0 for none
	 * @param guideOwner the nearest ancestor row that has a connector, -1 for none
	 * @param childCount how many rows have the row as their parent row
	 */
	record Shape(int[] parentRow, int[] depth, byte[] connector, int[] guideOwner, int[] childCount) {

		static final byte BRANCH = 1;

		static final byte LAST = 2;

	}

}

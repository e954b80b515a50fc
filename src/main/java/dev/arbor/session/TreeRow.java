package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One row of the selector view (docs/SESSION-FORMAT.md#the-selector-rows, {@code GET /sessions/{sid}/tree/rows}), with
 * what a renderer needs to draw it as upstream's tree selector does: a line is {@code depth} columns of three
 * characters, where column {@code L} holds {@code │} when {@code L} is in {@code guides}, else the connector ({@code ├}
 * or {@code └}, then {@code ⊟} when the row has children or {@code ─}) when it is the last column and the row has one,
 * else blanks.
 *
 * @param index the row's place in the whole view, from 0
 * @param id the entry id
 * @param parentId the entry's parent in the tree; {@code null} for a root, including an entry whose stored
 * {@code parentId} names no entry or closes a cycle. The parent may be an entry the view leaves out
 * @param visibleParentId the nearest ancestor that is a row of this view, {@code null} for the view's roots
 * @param depth the indentation in columns: it grows only below a row with several children (by one, and by one
 * more for the first row after such a branch when it has a single child), not along a chain; when the view
 * has several roots they share column 0 and what they hold starts one column in
 * @param connector how the row hangs from its visible parent when that parent has several children: {@code null}
 * for a chain's next row and for roots
 * @param guides the columns, ascending and each below {@code depth}, that carry a vertical line down to a later
 * sibling of an ancestor
 * @param childCount how many rows have this row as their visible parent
 * @param type the entry type
 * @param role {@code message.role} for a {@code message} entry, else {@code null}
 * @param text a short one-line preview, at most 200 characters
 * @param label the entry's resolved label, if any
 * @param labelTimestamp the {@code timestamp} of the label entry that set the label
 * @param onActivePath whether the entry is the leaf or one of its ancestors
 * @param isLeaf whether the entry is the session's leaf
 * @param selected whether the row is the one the selector opens on: the leaf, else its nearest ancestor in the
 * view, else the view's last row
 * @param folded whether the view was asked to fold the row, so that none of its descendants is a row: upstream
 * draws {@code ⊞} in place of its connector's {@code ⊟}, or before the row when it has no connector
 */
public record TreeRow(int index, String id, @Nullable String parentId, @Nullable String visibleParentId, int depth,
		@Nullable Connector connector, List<Integer> guides, int childCount, String type, @Nullable String role,
		String text, @Nullable String label, @Nullable String labelTimestamp, boolean onActivePath, boolean isLeaf,
		boolean selected, boolean folded) {

	public TreeRow {
		guides = List.copyOf(guides);
	}

	/** The connector a row hangs from: {@code ├} when a later sibling follows, {@code └} for the last. */
	public enum Connector {

		BRANCH, LAST

	}

}

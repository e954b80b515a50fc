package dev.arbor.operations;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Which page of the selector view to read (docs/API.md#tree): its size, and where it lies.
 *
 * @param limit the most rows on the page
 * @param anchor where the page lies
 * @param entryId the entry the anchor names; {@code null} for {@link Anchor#START}, {@link Anchor#SELECTED} and
 * {@link Anchor#OFFSET}
 * @param offset the index of the page's first row for {@link Anchor#OFFSET}; 0 for every other anchor
 */
public record RowsWindow(int limit, Anchor anchor, @Nullable String entryId, int offset) {

	public RowsWindow {
		if (limit < 1) {
			throw new IllegalArgumentException("A page holds at least one row");
		}
		if ((entryId == null) != (anchor == Anchor.START || anchor == Anchor.SELECTED || anchor == Anchor.OFFSET)) {
			throw new IllegalArgumentException(anchor + " takes " + ((entryId == null) ? "an" : "no") + " entry id");
		}
		if (offset < 0) {
			throw new IllegalArgumentException("An offset is a row's index: 0 or more, not " + offset);
		}
		if (offset != 0 && anchor != Anchor.OFFSET) {
			throw new IllegalArgumentException(anchor + " takes no offset");
		}
	}

	public static RowsWindow first(int limit) {
		return new RowsWindow(limit, Anchor.START, null, 0);
	}

	public static RowsWindow of(int limit, Anchor anchor, @Nullable String entryId) {
		return new RowsWindow(limit, Objects.requireNonNull(anchor), entryId, 0);
	}

	/** The page whose first row is the row with this index, or no rows when the view ends before it. */
	public static RowsWindow at(int limit, int offset) {
		return new RowsWindow(limit, Anchor.OFFSET, null, offset);
	}

	/** Where a page lies in the view. */
	public enum Anchor {

		/** The view's first rows. */
		START,

		/** The rows after a row: the {@code nextCursor} of the page before. */
		AFTER,

		/** The rows before a row: the {@code prevCursor} of the page after. */
		BEFORE,

		/**
		 * Centred on an entry's row, or on its nearest ancestor that is a row, or on the last row: placed as upstream's
		 * selector places the rows it shows around its selection.
		 */
		AROUND,

		/** Centred on the selected row, as {@link #AROUND} the leaf is. */
		SELECTED,

		/** Starting at an entry's row, or at the row that follows where the view leaves it out. */
		FROM,

		/**
		 * Starting at the row with an index, for a list that draws the whole view and jumps by its scrollbar: unlike
		 * the other anchors it names a place, not a row, so it does not follow a row when the view changes.
		 */
		OFFSET

	}

}

package dev.arbor.navigation;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Which page of the selector view to read (docs/API.md, Tree): its size, and where it lies.
 *
 * @param limit the most rows on the page
 * @param anchor where the page lies
 * @param entryId the entry the anchor names; {@code null} for {@link Anchor#START} and {@link Anchor#SELECTED}
 */
public record RowsWindow(int limit, Anchor anchor, @Nullable String entryId) {

	public RowsWindow {
		if (limit < 1) {
			throw new IllegalArgumentException("A page holds at least one row");
		}
		if ((entryId == null) != (anchor == Anchor.START || anchor == Anchor.SELECTED)) {
			throw new IllegalArgumentException(anchor + " takes " + ((entryId == null) ? "an" : "no") + " entry id");
		}
	}

	public static RowsWindow first(int limit) {
		return new RowsWindow(limit, Anchor.START, null);
	}

	public static RowsWindow of(int limit, Anchor anchor, @Nullable String entryId) {
		return new RowsWindow(limit, Objects.requireNonNull(anchor), entryId);
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
		FROM

	}

}

package dev.arbor.operations;

import java.util.List;

import dev.arbor.session.RowFilter;
import dev.arbor.session.TreeRow;
import org.jspecify.annotations.Nullable;

/**
 * A page of the selector view (docs/SESSION-FORMAT.md#the-selector-rows).
 *
 * @param filter the filter applied
 * @param query the search as given
 * @param total rows before filter and search
 * @param matched rows after filter and search, on every page together
 * @param selectedId the row the selector opens on; {@code null} when the view has no rows
 * @param selectedIndex that row's index in the view
 * @param version names the view's state: pages with the same version are slices of one view
 * @param rows this page's rows, in display order
 * @param prevCursor resumes the view before this page; {@code null} when the page starts the view or is empty
 * @param nextCursor resumes the view after this page; {@code null} when the page ends the view or is empty
 */
public record RowsPage(RowFilter filter, @Nullable String query, int total, int matched, @Nullable String selectedId,
		@Nullable Integer selectedIndex, String version, List<TreeRow> rows, @Nullable String prevCursor,
		@Nullable String nextCursor) {

	public RowsPage {
		rows = List.copyOf(rows);
	}

}

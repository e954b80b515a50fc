package dev.arbor.navigation;

import dev.arbor.session.RowFilter;
import dev.arbor.session.TreeRow;
import org.jspecify.annotations.Nullable;

/**
 * A page of the selector view (docs/SESSION-FORMAT.md §10).
 *
 * @param filter the filter applied
 * @param query the search as given
 * @param total rows before filter and search
 * @param matched rows after filter and search, on every page together
 * @param rows this page's rows and the cursor to the next
 */
public record RowsPage(RowFilter filter, @Nullable String query, int total, int matched, Page<TreeRow> rows) {
}

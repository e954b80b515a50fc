package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The selector view of a session (docs/SESSION-FORMAT.md §10): the tree flattened depth-first, filtered and
 * searched. Unpaged; the web layer cuts pages from {@code rows}.
 *
 * @param filter the filter applied
 * @param query the search query as given; {@code null} or blank means no search
 * @param total rows before filter and search: every entry of the tree once
 * @param matched rows after filter and search: the size of {@code rows}
 * @param rows the rows in display order
 */
public record TreeRows(RowFilter filter, @Nullable String query, int total, int matched, List<TreeRow> rows) {

	public TreeRows {
		rows = List.copyOf(rows);
	}

}

package dev.arbor.web;

import java.util.List;

import dev.arbor.navigation.RowsPage;
import dev.arbor.session.TreeRow;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A page of the selector view (docs/SESSION-FORMAT.md §10).
 *
 * @param filter the filter applied
 * @param q the search as given
 * @param total rows before filter and search
 * @param matched rows after filter and search, over all pages
 * @param rows this page's rows, in display order
 * @param nextCursor pass as {@code cursor} for the next page; {@code null} on the last
 */
@Schema(description = "The selector view: the tree flattened depth-first, the leaf's branch first, filtered and searched.")
record TreeRowsResponse(@Schema(example = "default") String filter, @Schema(example = "cfg") @Nullable String q,
		@Schema(example = "1019") int total, @Schema(example = "12") int matched, List<Row> rows,
		@Schema(description = "Pass as `cursor` for the next page: the id of this page's last row. Null on the last page.", example = "b2c3d4e5") @Nullable String nextCursor) {

	/**
	 * One row.
	 *
	 * @param id the entry id
	 * @param parentId the entry's parent in the tree, which may be a row this view leaves out
	 * @param depth how many of the row's ancestors are rows of this view
	 * @param type the entry type
	 * @param role {@code message.role} of a message entry
	 * @param text a one-line preview, at most 200 characters
	 * @param label the entry's label
	 * @param onActivePath whether the entry is the leaf or one of its ancestors
	 * @param isLeaf whether the entry is the leaf
	 */
	@Schema(name = "TreeRow", description = "One row of the selector view.")
	record Row(@Schema(example = "b2c3d4e5") String id, @Schema(example = "a1b2c3d4") @Nullable String parentId,
			@Schema(description = "Ancestors of this row that are rows of this view too: in row order it grows by at most one.", example = "1") int depth,
			@Schema(example = "message") String type, @Schema(example = "user") @Nullable String role,
			@Schema(description = "A one-line preview, at most 200 characters.", example = "Make the config loader read env vars") String text,
			@Schema(example = "before refactor") @Nullable String label,
			@Schema(example = "true") boolean onActivePath, @Schema(example = "false") boolean isLeaf) {

		static Row of(TreeRow row) {
			return new Row(row.id(), row.parentId(), row.depth(), row.type(), row.role(), row.text(), row.label(),
					row.onActivePath(), row.isLeaf());
		}

	}

	static TreeRowsResponse of(RowsPage page) {
		return new TreeRowsResponse(page.filter().apiName(), page.query(), page.total(), page.matched(),
				page.rows().items().stream().map(Row::of).toList(), page.rows().nextCursor());
	}

}

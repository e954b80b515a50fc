package dev.arbor.web;

import java.util.List;
import java.util.Locale;

import dev.arbor.operations.RowsPage;
import dev.arbor.session.TreeRow;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A page of the selector view (docs/SESSION-FORMAT.md#the-selector-rows, docs/API.md#tree).
 *
 * @param filter the filter applied
 * @param q the search as given
 * @param total rows before filter and search
 * @param matched rows after filter and search, over all pages
 * @param selectedId the row the selector opens on
 * @param selectedIndex its index in the view
 * @param version names the view's state
 * @param rows this page's rows, in display order
 * @param prevCursor pass as {@code before} for the page before; {@code null} on the first
 * @param nextCursor pass as {@code cursor} for the next page; {@code null} on the last
 */
@Schema(description = "A page of the selector view: the tree flattened depth-first, the leaf's branch first, filtered and searched, with what it takes to draw it.")
record TreeRowsResponse(@Schema(example = "default") String filter, @Schema(example = "config") @Nullable String q,
		@Schema(example = "1019") int total, @Schema(example = "12") int matched,
		@Schema(description = "The row the selector opens on: the leaf, else its nearest ancestor in this view, else the last row. Null when the view has no rows.", example = "d4e5f6a7") @Nullable String selectedId,
		@Schema(description = "The selected row's index in the whole view, from 0.", example = "7") @Nullable Integer selectedIndex,
		@Schema(description = "Names the state of the session the view shows: every append, leaf move and label changes it. Pages with the same version fit together; when it differs from the last page's, start again from around the selection.", example = "2kq3ttl1v5x8n.5f") String version,
		List<Row> rows,
		@Schema(description = "Pass as `before` for the rows before this page: the id of its first row. Null when the page starts the view.", example = "a1b2c3d4") @Nullable String prevCursor,
		@Schema(description = "Pass as `cursor` for the rows after this page: the id of its last row. Null when the page ends the view.", example = "b2c3d4e5") @Nullable String nextCursor) {

	/**
	 * One row, and how to draw it: {@code depth} columns of three characters, where column {@code L} is
	 * {@code │} when {@code L} is in {@code guides}, else the connector when it is the last column and the row has
	 * one ({@code ├} for {@code branch}, {@code └} for {@code last}, then {@code ⊟} if {@code childCount > 0} else
	 * {@code ─}), else blank.
	 *
	 * @param index the row's index in the whole view
	 * @param id the entry id
	 * @param parentId the entry's parent in the tree, which may be an entry this view leaves out
	 * @param visibleParentId the nearest ancestor that is a row of this view
	 * @param depth the indentation, in columns
	 * @param connector {@code branch}, {@code last} or {@code null}
	 * @param guides the columns with a vertical line
	 * @param childCount rows whose visible parent this row is
	 * @param type the entry type
	 * @param role {@code message.role} of a message entry
	 * @param text what upstream's selector writes for the row after its label
	 * @param label the entry's label
	 * @param labelTimestamp when the label was set
	 * @param onActivePath whether the entry is the leaf or one of its ancestors
	 * @param isLeaf whether the entry is the leaf
	 * @param selected whether this is the selected row
	 * @param folded whether the request folded the row
	 */
	@Schema(name = "TreeRow", description = "One row of the selector view, with what it takes to draw it as upstream's tree selector does.")
	record Row(@Schema(example = "7") int index, @Schema(example = "b2c3d4e5") String id,
			@Schema(example = "a1b2c3d4") @Nullable String parentId,
			@Schema(description = "The nearest ancestor that is a row of this view; null for the view's roots.", example = "a1b2c3d4") @Nullable String visibleParentId,
			@Schema(description = "Indentation in columns (upstream draws three characters each). It grows below a row with several children (by one, and by one more for the first row after the branch when that row has a single child), never along a chain. With several roots, the roots share column 0.", example = "1") int depth,
			@Schema(description = "How the row hangs from a visible parent with several children: `branch` (`├`) when a later sibling follows, `last` (`└`) for the last. Null along a chain and for roots.", allowableValues = { "branch", "last" }, example = "branch") @Nullable String connector,
			@Schema(description = "The columns, ascending and below `depth`, that carry a vertical line (`│`) down to a later sibling of an ancestor.", example = "[0]") List<Integer> guides,
			@Schema(description = "Rows whose visible parent this row is; the connector shows `⊟` when it is above 0.", example = "1") int childCount,
			@Schema(example = "message") String type, @Schema(example = "user") @Nullable String role,
			@Schema(description = "What upstream's tree selector writes for the row after its label, on one line: `user: ` or `assistant: ` and the first 200 characters of the text, a tool result as the call it answers (`[read: src/loader.ts:1-20]`, `[bash: npm test]`), `[bash]: command` for a bash execution, `[title: …]`, `[compaction: 123k tokens]`, `[model: …]` and so on; empty for a type upstream does not know.", example = "user: Make the config loader read env vars") String text,
			@Schema(example = "before refactor") @Nullable String label,
			@Schema(description = "The `timestamp` of the label entry that set the label.", example = "2026-01-02T10:00:00.000Z") @Nullable String labelTimestamp,
			@Schema(example = "true") boolean onActivePath, @Schema(example = "false") boolean isLeaf,
			@Schema(example = "false") boolean selected,
			@Schema(description = "Whether the request folded this row (`folded`): none of its descendants is a row. Upstream draws `⊞` in place of the connector's `⊟`, or before a row without a connector.", example = "false") boolean folded) {

		static Row of(TreeRow row) {
			String connector = (row.connector() != null) ? row.connector().name().toLowerCase(Locale.ROOT) : null;
			return new Row(row.index(), row.id(), row.parentId(), row.visibleParentId(), row.depth(), connector,
					row.guides(), row.childCount(), row.type(), row.role(), row.text(), row.label(),
					row.labelTimestamp(), row.onActivePath(), row.isLeaf(), row.selected(), row.folded());
		}

	}

	static TreeRowsResponse of(RowsPage page) {
		return new TreeRowsResponse(page.filter().apiName(), page.query(), page.total(), page.matched(),
				page.selectedId(), page.selectedIndex(), page.version(), page.rows().stream().map(Row::of).toList(),
				page.prevCursor(), page.nextCursor());
	}

}

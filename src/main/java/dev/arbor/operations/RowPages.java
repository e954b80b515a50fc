package dev.arbor.operations;

import dev.arbor.session.TreeRows;
import org.jspecify.annotations.Nullable;

/**
 * Cuts a page out of a selector view (docs/API.md#tree). The cursors are row ids: a page's first row resumes
 * the view backward, its last row forward, so pages read either way meet with nothing missed or repeated while
 * the view's version stays the same.
 */
final class RowPages {

	private RowPages() {
	}

	static RowsPage page(TreeRows view, @Nullable String query, RowsWindow window) {
		int matched = view.matched();
		int limit = window.limit();
		int start;
		int end;
		switch (window.anchor()) {
			case START -> {
				start = 0;
				end = Math.min(limit, matched);
			}
			case AFTER -> {
				start = requireRow(view, window.entryId(), "cursor") + 1;
				end = Math.min(start + limit, matched);
			}
			case BEFORE -> {
				end = requireRow(view, window.entryId(), "before");
				start = Math.max(0, end - limit);
			}
			case FROM -> {
				start = view.indexFrom(window.entryId());
				end = Math.min(start + limit, matched);
			}
			case OFFSET -> {
				// Clamped: past the last row the page is the empty one at the end, as FROM's is after the last row, and
				// offset + limit cannot overflow.
				start = Math.min(window.offset(), matched);
				end = Math.min(start + limit, matched);
			}
			default -> {
				int centre = (window.anchor() == RowsWindow.Anchor.SELECTED) ? view.selectedIndex()
						: view.indexAround(window.entryId());
				// Upstream's window: centred, unless that would run past either end of the view.
				start = Math.max(0, Math.min(centre - limit / 2, matched - limit));
				end = Math.min(start + limit, matched);
			}
		}
		int selected = view.selectedIndex();
		boolean empty = start >= end;
		return new RowsPage(view.filter(), query, view.total(), matched, (selected >= 0) ? view.idAt(selected) : null,
				(selected >= 0) ? selected : null, view.version(), view.rows(start, Math.max(start, end)),
				(!empty && start > 0) ? view.idAt(start) : null, (!empty && end < matched) ? view.idAt(end - 1) : null);
	}

	private static int requireRow(TreeRows view, String rowId, String parameter) {
		int index = view.indexOfRow(rowId);
		if (index < 0) {
			throw new InvalidCursorException(parameter,
					parameter + " names no row of this view: it changed since the page that gave the cursor, or the cursor comes from another filter or search; start again from around the selection");
		}
		return index;
	}

}

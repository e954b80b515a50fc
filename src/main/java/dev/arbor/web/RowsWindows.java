package dev.arbor.web;

import java.util.ArrayList;
import java.util.List;

import dev.arbor.operations.RowsWindow;
import dev.arbor.operations.RowsWindow.Anchor;
import dev.arbor.web.edge.QueryParameterException;
import org.jspecify.annotations.Nullable;

/** Reads where a page of the selector view lies from the query parameters that can say it, of which one at most. */
final class RowsWindows {

	private RowsWindows() {
	}

	static RowsWindow of(int limit, @Nullable String cursor, @Nullable String before, @Nullable String around,
			boolean aroundSelected, @Nullable String from, @Nullable Integer offset) {
		List<String> given = new ArrayList<>();
		RowsWindow window = RowsWindow.first(limit);
		if (cursor != null) {
			given.add("cursor");
			window = RowsWindow.of(limit, Anchor.AFTER, cursor);
		}
		if (before != null) {
			given.add("before");
			window = RowsWindow.of(limit, Anchor.BEFORE, before);
		}
		if (around != null) {
			given.add("around");
			window = RowsWindow.of(limit, Anchor.AROUND, around);
		}
		if (aroundSelected) {
			given.add("aroundSelected");
			window = RowsWindow.of(limit, Anchor.SELECTED, null);
		}
		if (from != null) {
			given.add("from");
			window = RowsWindow.of(limit, Anchor.FROM, from);
		}
		if (offset != null) {
			given.add("offset");
			window = RowsWindow.at(limit, offset);
		}
		if (given.size() > 1) {
			throw new QueryParameterException(given.get(1), "Give at most one of cursor, before, around, aroundSelected, from and offset: this request gives " + String.join(" and ", given));
		}
		return window;
	}

}

package dev.arbor.web;

import java.util.List;

import dev.arbor.session.EntryLine;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A page of entries in file order.
 *
 * @param items the entries, as stored
 * @param nextCursor pass as {@code after} for the next page (the last entry's id); {@code null} on the last page
 */
@Schema(description = "A page of entries in file order.")
record EntryPage(List<EntryLine> items,
		@Schema(description = "Pass as `after` for the next page: the id of this page's last entry. Null on the last page.", example = "a1b2c3d4") @Nullable String nextCursor) {
}

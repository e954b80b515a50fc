package dev.arbor.web;

import java.util.List;

import dev.arbor.operations.EntryDetail;
import dev.arbor.session.EntryLine;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * One entry with its label and children.
 *
 * @param entry the entry, as stored
 * @param label its resolved label
 * @param childIds its direct children in insertion order
 */
@Schema(description = "One entry with its resolved label and its children.")
record EntryResponse(EntryLine entry, @Schema(example = "before refactor") @Nullable String label,
		@Schema(description = "Direct children, in insertion order.", example = "[\"b2c3d4e5\"]") List<String> childIds) {

	static EntryResponse of(EntryDetail detail) {
		return new EntryResponse(detail.entry(), detail.label(), detail.childIds());
	}

}

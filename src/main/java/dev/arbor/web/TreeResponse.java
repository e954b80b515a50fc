package dev.arbor.web;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * {@code getTree()}, flat: every entry once (a nested document would break on deep chains). The shape of the document
 * as the OpenAPI document describes it; {@link TreeJson} writes it.
 *
 * @param leafId the leaf
 * @param rootIds the roots, in file order
 * @param nodes one node per entry, in file order
 */
@Schema(description = "Every entry once, flat; children sorted by timestamp.")
record TreeResponse(@Schema(example = "c3d4e5f6") @Nullable String leafId,
		@Schema(example = "[\"a1b2c3d4\"]") List<String> rootIds, List<Node> nodes) {

	/**
	 * One entry of the tree.
	 *
	 * @param id the entry id
	 * @param parentId the node it hangs under; {@code null} for a root
	 * @param type the entry type
	 * @param timestamp the entry's time, ISO-8601 UTC with milliseconds
	 * @param label its resolved label
	 * @param childIds its children sorted by timestamp
	 */
	@Schema(name = "TreeNode", description = "One entry of the tree, without its content.")
	record Node(@Schema(example = "b2c3d4e5") String id,
			@Schema(description = "The node this one hangs under; null for a root (also when the stored parentId names no entry).", example = "a1b2c3d4") @Nullable String parentId,
			@Schema(example = "message") String type,
			@Schema(description = "The entry's timestamp in UTC with milliseconds (an offset or missing milliseconds in the file are normalized); null when it has none that can be read.", example = "2025-11-20T23:33:05.120Z") @Nullable String timestamp,
			@Schema(example = "before refactor") @Nullable String label,
			@Schema(description = "Children sorted by timestamp, stable for equal timestamps.", example = "[\"c3d4e5f6\"]") List<String> childIds) {
	}

}

package dev.arbor.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * Where the leaf goes.
 *
 * @param entryId an entry ({@code branch}), or {@code null} ({@code resetLeaf}); required, so that a forgotten
 * field never resets the leaf
 */
@Schema(description = "Moves the leaf: to an entry (branch), or to null (resetLeaf: the next append starts a new root).")
record MoveLeafRequest(@JsonProperty(required = true) @ValidId
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "An entry id, or null.", example = "b2c3d4e5") @Nullable String entryId) {
}

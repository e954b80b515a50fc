package dev.arbor.web;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The leaf.
 *
 * @param leafId the current position; {@code null} before the first entry
 */
@Schema(description = "The session's current position.")
record LeafResponse(@Schema(description = "The leaf; null before the first entry (the next append starts a new root).", example = "c3d4e5f6") @Nullable String leafId) {
}

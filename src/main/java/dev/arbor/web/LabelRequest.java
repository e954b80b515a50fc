package dev.arbor.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * A label for an entry.
 *
 * @param label the label; blank clears it
 */
@Schema(description = "Sets an entry's label; a blank label clears it.")
record LabelRequest(@NotNull(message = "is required") @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "before refactor") @Nullable String label) {
}

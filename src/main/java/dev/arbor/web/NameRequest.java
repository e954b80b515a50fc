package dev.arbor.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * A session's name, as pi's {@code /name} sets it.
 *
 * @param name the name; trimmed when stored, and empty clears it
 */
@Schema(description = "Names the session as pi's `/name` does; an empty name clears it.")
record NameRequest(@NotNull(message = "is required") @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "flaky test hunt") @Nullable String name) {
}

package dev.arbor.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * {@code /branch} from a user message.
 *
 * @param entryId the user message
 */
@Schema(description = "The user message to branch at.")
record BranchRequest(@JsonProperty(required = true) @NotNull(message = "is required") @ValidId
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "A user message of the session.", example = "c3d4e5f6") @Nullable String entryId) {
}

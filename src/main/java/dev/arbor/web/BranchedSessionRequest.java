package dev.arbor.web;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

/**
 * {@code createBranchedSession(leafId)}.
 *
 * @param leafId the last entry of the path copied
 */
@Schema(description = "The entry whose path (root → entry) becomes the new session.")
record BranchedSessionRequest(@JsonProperty(required = true) @NotNull(message = "is required") @ValidId
		@Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The last entry of the path copied.", example = "b2c3d4e5") @Nullable String leafId) {
}

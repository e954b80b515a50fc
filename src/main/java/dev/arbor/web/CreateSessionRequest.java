package dev.arbor.web;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * What a new session starts with; every field may be left out.
 *
 * @param cwd the working directory the session belongs to
 * @param title its title
 * @param parentSession the session it continues (opaque text)
 */
@Schema(description = "A new, empty session. Every field is optional.", example = "{\"cwd\":\"/home/me/project\",\"title\":\"Fix the flaky test\"}")
record CreateSessionRequest(@Schema(example = "/home/me/project") @Nullable String cwd,
		@Schema(example = "Fix the flaky test") @Nullable String title,
		@Schema(description = "The session this one continues: kept as opaque text.", example = "019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f") @Nullable String parentSession) {

	static final CreateSessionRequest EMPTY = new CreateSessionRequest(null, null, null);

}

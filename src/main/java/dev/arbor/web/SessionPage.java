package dev.arbor.web;

import java.util.List;

import dev.arbor.navigation.Page;
import dev.arbor.storage.SessionInfo;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * A page of the session listing.
 *
 * @param items sessions, most recently updated first
 * @param nextCursor pass as {@code cursor} for the next page; {@code null} on the last
 */
@Schema(description = "A page of sessions, most recently updated first.")
record SessionPage(List<SessionResponse> items,
		@Schema(nullable = true, description = "Pass as `cursor` for the next page; null on the last page.", example = "MTc2MzY4MTE4MTU1MHwwMTlhOWYzZQ") @Nullable String nextCursor) {

	static SessionPage of(Page<SessionInfo> page) {
		return new SessionPage(page.items().stream().map(SessionResponse::of).toList(), page.nextCursor());
	}

}

package dev.arbor.session;

import java.util.List;

/** Message roles, shared so that 100,000 messages don't hold 100,000 copies of {@code "assistant"}. */
final class Roles {

	/** Most frequent first (the line scanner tries them in this order). */
	static final List<String> NAMES = List.of("assistant", "toolResult", "user", "custom", "bashExecution",
			"developer", "hookMessage", "system");

	private Roles() {
	}

}

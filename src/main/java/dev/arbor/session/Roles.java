package dev.arbor.session;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Message roles, shared so that 100,000 messages don't hold 100,000 copies of {@code "assistant"}. */
final class Roles {

	private static final Map<String, String> KNOWN = Stream
		.of("user", "assistant", "toolResult", "custom", "hookMessage", "bashExecution", "developer", "system",
				"branchSummary", "compactionSummary")
		.collect(Collectors.toUnmodifiableMap(Function.identity(), Function.identity()));

	private Roles() {
	}

	static String canonical(String role) {
		return KNOWN.getOrDefault(role, role);
	}

}

package dev.arbor.session;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The entry type names of SESSION-TREE.md §2.2. */
public final class EntryTypes {

	public static final String SESSION = "session";

	public static final String TITLE = "title";

	public static final String MESSAGE = "message";

	public static final String THINKING_LEVEL_CHANGE = "thinking_level_change";

	public static final String MODEL_CHANGE = "model_change";

	public static final String MODE_CHANGE = "mode_change";

	public static final String TTSR_INJECTION = "ttsr_injection";

	public static final String COMPACTION = "compaction";

	public static final String BRANCH_SUMMARY = "branch_summary";

	public static final String CUSTOM = "custom";

	public static final String CUSTOM_MESSAGE = "custom_message";

	public static final String LABEL = "label";

	/** Written by recent oh-my-pi; appendable as given, never in the context. */
	public static final Set<String> AGENT_STATE = Set.of("session_init", "service_tier_change", "title_change",
			"credential_pin", "reset_boundary");

	private static final Map<String, String> KNOWN = Stream
		.concat(Stream.of(SESSION, TITLE, MESSAGE, THINKING_LEVEL_CHANGE, MODEL_CHANGE, MODE_CHANGE, TTSR_INJECTION,
				COMPACTION, BRANCH_SUMMARY, CUSTOM, CUSTOM_MESSAGE, LABEL), AGENT_STATE.stream())
		.collect(Collectors.toUnmodifiableMap(Function.identity(), Function.identity()));

	private EntryTypes() {
	}

	/** The shared instance of a known type name, so 100,000 entries don't hold 100,000 copies. */
	public static String canonical(String type) {
		return KNOWN.getOrDefault(type, type);
	}

	/** Whether the type is one of the table of §2.2 (the rest are kept but never appendable). */
	public static boolean isKnown(String type) {
		return KNOWN.containsKey(type) && !SESSION.equals(type) && !TITLE.equals(type);
	}

}

package dev.arbor.session;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The entry type names of docs/SESSION-FORMAT.md#entry-types. */
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

	/** A session's display name, as pi's {@code /name} writes it (docs/SESSION-FORMAT.md#how-a-session-is-listed). */
	public static final String SESSION_INFO = "session_info";

	/** Written by recent oh-my-pi; appendable as given, never in the context. */
	public static final Set<String> AGENT_STATE = Set.of("session_init", "service_tier_change", "title_change",
			"credential_pin", "reset_boundary");

	/** Every known name, most frequent first (the line scanner tries them in this order). */
	static final List<String> NAMES = Stream
		.concat(Stream.of(MESSAGE, THINKING_LEVEL_CHANGE, MODEL_CHANGE, CUSTOM_MESSAGE, CUSTOM, LABEL, COMPACTION,
				BRANCH_SUMMARY, MODE_CHANGE, TTSR_INJECTION, SESSION_INFO, SESSION, TITLE), AGENT_STATE.stream().sorted())
		.toList();

	private EntryTypes() {
	}

}

package dev.arbor.session;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The selector's filters (docs/SESSION-FORMAT.md §10), each with the name the API uses for it
 * ({@code ?filter=no-tools}). Tool-call-only assistant messages are hidden by every filter; that rule
 * lives in the rows builder, not here.
 */
public enum RowFilter {

	/** Hides bookkeeping entries: labels, custom entries and state changes. */
	DEFAULT("default"),

	/** {@link #DEFAULT} without {@code toolResult} messages. */
	NO_TOOLS("no-tools"),

	/** Only {@code user} messages. */
	USER_ONLY("user-only"),

	/** Only entries that carry a label. */
	LABELED_ONLY("labeled-only"),

	/** Every entry. */
	ALL("all");

	/** What {@link #DEFAULT} hides: entries that change settings or state rather than say something. */
	private static final Set<String> BOOKKEEPING = Set.of(EntryTypes.LABEL, EntryTypes.CUSTOM,
			EntryTypes.MODEL_CHANGE, EntryTypes.THINKING_LEVEL_CHANGE, "service_tier_change", "title_change",
			"credential_pin", "session_init", EntryTypes.TTSR_INJECTION, EntryTypes.MODE_CHANGE, "reset_boundary");

	private final String apiName;

	RowFilter(String apiName) {
		this.apiName = apiName;
	}

	/** The name used in the API: {@code default}, {@code no-tools}, {@code user-only}, … */
	public String apiName() {
		return this.apiName;
	}

	/**
	 * The filter with this API name (exact, case-sensitive).
	 *
	 * @throws IllegalArgumentException for any other name, listing the valid ones
	 */
	public static RowFilter fromName(String name) {
		for (RowFilter filter : values()) {
			if (filter.apiName.equals(name)) {
				return filter;
			}
		}
		throw new IllegalArgumentException("Unknown tree filter '" + name
				+ "': expected one of default, no-tools, user-only, labeled-only, all");
	}

	/**
	 * Whether an entry of this type could pass, decided before its message is read: most rows a
	 * narrow filter drops are dropped without parsing them.
	 */
	boolean mayShow(String type, boolean labelled) {
		return switch (this) {
			case DEFAULT, NO_TOOLS -> !BOOKKEEPING.contains(type);
			case USER_ONLY -> EntryTypes.MESSAGE.equals(type);
			case LABELED_ONLY -> labelled;
			case ALL -> true;
		};
	}

	/** Whether an entry passes, given its message role ({@code null} for entries that are not messages). */
	boolean shows(String type, @Nullable String role, boolean labelled) {
		if (!mayShow(type, labelled)) {
			return false;
		}
		return switch (this) {
			case NO_TOOLS -> !"toolResult".equals(role);
			case USER_ONLY -> "user".equals(role);
			default -> true;
		};
	}

}

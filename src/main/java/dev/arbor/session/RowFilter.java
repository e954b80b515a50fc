package dev.arbor.session;

/**
 * The selector's filters (docs/SESSION-FORMAT.md#the-selector-rows), each with the name the API uses for it
 * ({@code ?filter=no-tools}). Tool-call-only assistant messages are hidden by every filter; that rule
 * lives in the view, not here.
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

	/** Whether an entry with these {@link RowFacts} passes; the always-hidden rule is the view's, not the filter's. */
	boolean shows(byte facts, boolean labelled) {
		return switch (this) {
			case DEFAULT -> !RowFacts.has(facts, RowFacts.BOOKKEEPING);
			case NO_TOOLS -> !RowFacts.has(facts, RowFacts.BOOKKEEPING) && !RowFacts.has(facts, RowFacts.TOOL_RESULT);
			case USER_ONLY -> RowFacts.has(facts, RowFacts.USER);
			case LABELED_ONLY -> labelled;
			case ALL -> true;
		};
	}

}

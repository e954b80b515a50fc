package dev.arbor.operations;

/**
 * The two views of a built context (docs/SESSION-FORMAT.md#the-model-context), with the names the API uses
 * ({@code ?format=llm}).
 */
public enum ContextFormat {

	/** Agent messages, summaries and custom messages with their own roles. */
	AGENT("agent"),

	/** What a model receives (docs/SESSION-FORMAT.md#the-llm-view). */
	LLM("llm");

	private final String apiName;

	ContextFormat(String apiName) {
		this.apiName = apiName;
	}

	public String apiName() {
		return this.apiName;
	}

	/**
	 * @throws IllegalArgumentException for any other name, listing the valid ones
	 */
	public static ContextFormat fromName(String name) {
		for (ContextFormat format : values()) {
			if (format.apiName.equals(name)) {
				return format;
			}
		}
		throw new IllegalArgumentException("Unknown context format '" + name + "': expected agent or llm");
	}

}

package dev.arbor.storage;

import org.jspecify.annotations.Nullable;

/** A conditional mutation found the leaf somewhere other than where its caller saw it; nothing was written. */
public class LeafMovedException extends RuntimeException {

	private final String sessionId;

	private final @Nullable String expectedLeafId;

	private final @Nullable String actualLeafId;

	public LeafMovedException(String sessionId, @Nullable String expectedLeafId, @Nullable String actualLeafId) {
		super("The leaf of session " + sessionId + " is " + describe(actualLeafId) + ", not "
				+ describe(expectedLeafId));
		this.sessionId = sessionId;
		this.expectedLeafId = expectedLeafId;
		this.actualLeafId = actualLeafId;
	}

	public String sessionId() {
		return this.sessionId;
	}

	public @Nullable String expectedLeafId() {
		return this.expectedLeafId;
	}

	public @Nullable String actualLeafId() {
		return this.actualLeafId;
	}

	private static String describe(@Nullable String leafId) {
		return (leafId != null) ? leafId : "null (before the first entry)";
	}

}

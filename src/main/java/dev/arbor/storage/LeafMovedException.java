package dev.arbor.storage;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/** A conditional mutation found the leaf somewhere other than where its caller saw it; nothing was written. */
public class LeafMovedException extends RuntimeException {

	private final String sessionId;

	private final List<String> expectedTags;

	private final @Nullable String actualLeafId;

	public LeafMovedException(String sessionId, List<String> expectedTags, @Nullable String actualLeafId) {
		super("The leaf of session " + sessionId + " is " + describe(actualLeafId) + ", not "
				+ (expectedTags.isEmpty() ? "one the request accepts"
						: "the one tagged " + expectedTags.stream().map(tag -> "\"" + tag + "\"").collect(Collectors.joining(" or "))));
		this.sessionId = sessionId;
		this.expectedTags = expectedTags;
		this.actualLeafId = actualLeafId;
	}

	public String sessionId() {
		return this.sessionId;
	}

	/** The {@link LeafTag}s the caller named. */
	public List<String> expectedTags() {
		return this.expectedTags;
	}

	public @Nullable String actualLeafId() {
		return this.actualLeafId;
	}

	private static String describe(@Nullable String leafId) {
		return (leafId != null) ? leafId : "null (before the first entry)";
	}

}

package dev.arbor.storage;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/** A conditional mutation found the leaf somewhere other than where its caller saw it; nothing was written. */
public class LeafMovedException extends RuntimeException {

	private final String sessionId;

	private final List<@Nullable String> expectedLeafIds;

	private final @Nullable String actualLeafId;

	public LeafMovedException(String sessionId, List<@Nullable String> expectedLeafIds, @Nullable String actualLeafId) {
		super("The leaf of session " + sessionId + " is " + describe(actualLeafId) + ", not "
				+ (expectedLeafIds.isEmpty() ? "one the request accepts"
						: expectedLeafIds.stream().map(LeafMovedException::describe).collect(Collectors.joining(" or "))));
		this.sessionId = sessionId;
		this.expectedLeafIds = expectedLeafIds;
		this.actualLeafId = actualLeafId;
	}

	public String sessionId() {
		return this.sessionId;
	}

	public List<@Nullable String> expectedLeafIds() {
		return this.expectedLeafIds;
	}

	public @Nullable String actualLeafId() {
		return this.actualLeafId;
	}

	private static String describe(@Nullable String leafId) {
		return (leafId != null) ? leafId : "null (before the first entry)";
	}

}

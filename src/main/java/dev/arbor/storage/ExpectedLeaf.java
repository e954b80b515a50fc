package dev.arbor.storage;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The leaf a caller saw before a mutation ({@code If-Match}, SESSION-TREE.md §9): when the leaf has
 * moved since, the mutation fails and changes nothing.
 *
 * @param any whether any leaf will do (no precondition)
 * @param leafId the expected leaf when {@code any} is false; {@code null} for "before the first entry"
 */
public record ExpectedLeaf(boolean any, @Nullable String leafId) {

	public static final ExpectedLeaf ANY = new ExpectedLeaf(true, null);

	public static ExpectedLeaf of(@Nullable String leafId) {
		return new ExpectedLeaf(false, leafId);
	}

	void check(String sessionId, @Nullable String actual) {
		if (!this.any && !Objects.equals(this.leafId, actual)) {
			throw new LeafMovedException(sessionId, this.leafId, actual);
		}
	}

}

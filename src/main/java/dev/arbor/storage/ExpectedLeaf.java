package dev.arbor.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The leaf a caller saw before a mutation ({@code If-Match}, SESSION-TREE.md §9): when the leaf has
 * moved since, the mutation fails and changes nothing.
 *
 * @param any whether any leaf will do (no precondition)
 * @param leafIds when {@code any} is false, the leaves the caller accepts ({@code null} stands for "before the
 * first entry"); an empty list accepts none, so the mutation always fails
 */
public record ExpectedLeaf(boolean any, List<@Nullable String> leafIds) {

	public static final ExpectedLeaf ANY = new ExpectedLeaf(true, List.of());

	public ExpectedLeaf {
		leafIds = Collections.unmodifiableList(new ArrayList<>(leafIds)); // List.copyOf refuses the null leaf
	}

	public static ExpectedLeaf of(@Nullable String leafId) {
		return new ExpectedLeaf(false, Collections.singletonList(leafId));
	}

	/** One of several leaves ({@code If-Match: "a", "b"}); none at all matches nothing. */
	public static ExpectedLeaf oneOf(List<@Nullable String> leafIds) {
		return new ExpectedLeaf(false, leafIds);
	}

	public boolean matches(@Nullable String actual) {
		return this.any || this.leafIds.contains(actual);
	}

	public void check(String sessionId, @Nullable String actual) {
		if (!matches(actual)) {
			throw new LeafMovedException(sessionId, this.leafIds, actual);
		}
	}

}

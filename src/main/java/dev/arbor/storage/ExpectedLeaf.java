package dev.arbor.storage;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The leaf a caller saw before a mutation ({@code If-Match}, docs/API.md#versions-etag-and-if-match): when the leaf has
 * moved since, the mutation fails and changes nothing. Leaves are compared by their {@link LeafTag}, which is what
 * the caller was given.
 *
 * @param any whether any leaf will do (no precondition)
 * @param tags when {@code any} is false, the tags of the leaves the caller accepts; an empty list accepts none, so
 * the mutation always fails
 */
public record ExpectedLeaf(boolean any, List<String> tags) {

	public static final ExpectedLeaf ANY = new ExpectedLeaf(true, List.of());

	public ExpectedLeaf {
		tags = List.copyOf(tags);
	}

	/** This leaf ({@code null}: before the first entry). */
	public static ExpectedLeaf of(@Nullable String leafId) {
		return new ExpectedLeaf(false, List.of(LeafTag.of(leafId)));
	}

	/** One of several leaves, by id; none at all matches nothing. */
	public static ExpectedLeaf oneOf(List<@Nullable String> leafIds) {
		return new ExpectedLeaf(false, leafIds.stream().map(LeafTag::of).toList());
	}

	/** One of the leaves these tags name ({@code If-Match: "a", "b"}). */
	public static ExpectedLeaf tagged(List<String> tags) {
		return new ExpectedLeaf(false, tags);
	}

	public boolean matches(@Nullable String actual) {
		return this.any || this.tags.contains(LeafTag.of(actual));
	}

	public void check(String sessionId, @Nullable String actual) {
		if (!matches(actual)) {
			throw new LeafMovedException(sessionId, this.tags, actual);
		}
	}

}

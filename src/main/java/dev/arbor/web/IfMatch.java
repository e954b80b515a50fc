package dev.arbor.web;

import java.util.ArrayList;
import java.util.List;

import dev.arbor.storage.ExpectedLeaf;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ETag;

/**
 * {@code If-Match} as the leaf a mutation expects (RFC 9110 §13.1.1, SESSION-TREE.md §9). Absent or {@code *}: any
 * leaf. Tags compare strongly, so a weak tag ({@code W/"…"}) matches no leaf.
 */
final class IfMatch {

	private IfMatch() {
	}

	/**
	 * @throws InvalidIfMatchException when the header holds no entity tag
	 */
	static ExpectedLeaf parse(@Nullable String header) {
		if (header == null || header.isBlank()) {
			return ExpectedLeaf.ANY;
		}
		List<ETag> tags = ETag.parse(header);
		if (tags.isEmpty()) {
			throw new InvalidIfMatchException();
		}
		List<@Nullable String> leaves = new ArrayList<>();
		for (ETag tag : tags) {
			if (tag.isWildcard()) {
				return ExpectedLeaf.ANY;
			}
			if (!tag.weak()) {
				leaves.add(ETags.toLeaf(tag.tag()));
			}
		}
		return ExpectedLeaf.oneOf(leaves);
	}

}

package dev.arbor.web;

import dev.arbor.storage.LeafTag;
import org.jspecify.annotations.Nullable;

/** A session's version as an entity tag: its {@link LeafTag}, quoted (docs/API.md#versions-etag-and-if-match). */
final class ETags {

	private ETags() {
	}

	/** The quoted tag, for {@code ETag}. */
	static String forLeaf(@Nullable String leafId) {
		return "\"" + LeafTag.of(leafId) + "\"";
	}

}

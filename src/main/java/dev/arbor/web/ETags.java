package dev.arbor.web;

import org.jspecify.annotations.Nullable;

/**
 * A session's version as an entity tag: its leaf id, {@code "root"} for a null leaf (API.md Conventions).
 */
final class ETags {

	/** The tag of a null leaf, and what {@code If-Match: "root"} stands for. */
	static final String ROOT = "root";

	private ETags() {
	}

	/** The quoted tag, for {@code ETag}. */
	static String forLeaf(@Nullable String leafId) {
		return "\"" + ((leafId != null) ? leafId : ROOT) + "\"";
	}

	/** The leaf an unquoted tag names. */
	static @Nullable String toLeaf(String tag) {
		return ROOT.equals(tag) ? null : tag;
	}

}

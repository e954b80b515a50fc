package dev.arbor.operations;

import org.jspecify.annotations.Nullable;

/**
 * Something read from or written to a session, with the leaf the session had at that moment: read under the same
 * lock, so the two agree. The leaf is the session's version ({@code ETag}, docs/API.md#versions-etag-and-if-match).
 *
 * @param value what was read or written
 * @param leafId the session's leaf then; {@code null} before the first entry
 * @param <T> the value's type
 */
public record Snapshot<T>(T value, @Nullable String leafId) {
}

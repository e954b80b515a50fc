package dev.arbor.session;

import org.jspecify.annotations.Nullable;

/**
 * One row of the selector view (docs/SESSION-FORMAT.md §10, {@code GET /sessions/{sid}/tree/rows}).
 *
 * @param id the entry id
 * @param parentId the entry's parent in the tree; {@code null} for a root, including an entry whose
 * stored {@code parentId} names no entry or closes a cycle. The parent may be a row this view does not
 * return: {@code depth}, not {@code parentId}, places a row among the returned rows
 * @param depth how many of the row's ancestors are returned rows too: roots are 0, and rows that are
 * hidden, filtered out or don't match the search leave no gap, so in row order depth grows by at most
 * one and the rows with their depths describe exactly the tree of the returned rows
 * @param type the entry type
 * @param role {@code message.role} for a {@code message} entry, else {@code null}
 * @param text a short one-line preview, at most 200 characters
 * @param label the entry's resolved label, if any
 * @param onActivePath whether the entry is the leaf or one of its ancestors
 * @param isLeaf whether the entry is the session's leaf
 */
public record TreeRow(String id, @Nullable String parentId, int depth, String type, @Nullable String role,
		String text, @Nullable String label, boolean onActivePath, boolean isLeaf) {
}

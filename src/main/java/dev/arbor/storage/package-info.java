/**
 * Session files on disk: reading and migrating them, durable appends with group commit, atomic
 * rewrites with backups, the persisted leaf, OS file locks and the registry of sessions under the
 * storage directory (SESSION-TREE.md §3 and §9). The rest of Arbor sees it through {@link dev.arbor.storage.SessionStore}.
 */
@NullMarked
package dev.arbor.storage;

import org.jspecify.annotations.NullMarked;

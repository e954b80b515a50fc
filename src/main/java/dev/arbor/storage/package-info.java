/**
 * Where sessions live: the {@link dev.arbor.storage.SessionStore} the rest of Arbor sees, the changes a store
 * announces, the conditions and failures of its operations, and what every store shares: reading a session in the
 * JSONL format of the upstream agents (imports, exports and the file store), with its migrations
 * (docs/SESSION-FORMAT.md#versions-and-migrations) and repairs
 * (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions). Each store lives in a subpackage of its
 * own.
 */
@NullMarked
package dev.arbor.storage;


import org.jspecify.annotations.NullMarked;

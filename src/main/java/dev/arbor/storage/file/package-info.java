/**
 * The file store, Arbor's embedded default: session files under one directory, as the pi and oh-my-pi agents
 * write them. Durable appends with group commit at the true end of each file, atomic rewrites with backups, the
 * persisted leaf, OS file locks, the registry of sessions under the directory, and the live tail that takes in
 * what other processes write (docs/SESSION-FORMAT.md#reading-a-file and
 * docs/SESSION-FORMAT.md#durability-and-concurrency).
 */
@NullMarked
package dev.arbor.storage.file;


import org.jspecify.annotations.NullMarked;

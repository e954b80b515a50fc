package dev.arbor.operations;

import java.util.List;

import dev.arbor.session.EntryLine;
import org.jspecify.annotations.Nullable;

/**
 * One entry with what the tree knows about it.
 *
 * @param entry the entry as stored
 * @param label its resolved label, if any
 * @param childIds its direct children in insertion order
 */
public record EntryDetail(EntryLine entry, @Nullable String label, List<String> childIds) {
}

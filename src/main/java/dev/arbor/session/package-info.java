/**
 * The session tree of docs/SESSION-FORMAT.md in code: entries, the tree, labels, the model context and the
 * selector view. Pure Java: no Spring, no files; storage hands it bytes and writes what it returns.
 */
@NullMarked
package dev.arbor.session;

import org.jspecify.annotations.NullMarked;

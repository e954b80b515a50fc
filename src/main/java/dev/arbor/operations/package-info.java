/**
 * What the API does with sessions, over the session store: their lifecycle, import and export, reading their
 * entries, tree and context, appending, moving the leaf and labels, and (docs/SESSION-FORMAT.md#navigation and
 * docs/SESSION-FORMAT.md#branching-and-forking) navigating and branching. The web layer makes one call here per
 * request.
 */
@NullMarked
package dev.arbor.operations;

import org.jspecify.annotations.NullMarked;

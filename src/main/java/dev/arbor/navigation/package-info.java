/**
 * What the API does with sessions, over the session store: their lifecycle, import and export, reading their
 * entries, tree and context, appending, moving the leaf and labels, and (SESSION-TREE.md §7–8) navigating and
 * branching. The web layer makes one call here per request.
 */
@NullMarked
package dev.arbor.navigation;

import org.jspecify.annotations.NullMarked;

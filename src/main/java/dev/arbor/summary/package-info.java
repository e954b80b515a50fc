/**
 * Branch summaries by a model (docs/SESSION-FORMAT.md#navigation): the {@link dev.arbor.summary.BranchSummarizer} the
 * navigation flow calls when the user asks for a summary of the branch left behind, and its implementation on
 * Spring AI's chat client. Spring AI and the providers' HTTP clients are used here and nowhere else.
 */
@NullMarked
package dev.arbor.summary;

import org.jspecify.annotations.NullMarked;

package dev.arbor.summary;

import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryTypes;

/**
 * Which abandoned entries a summary is made of (docs/SESSION-FORMAT.md#navigation): messages other than tool results
 * (the assistant's tool calls carry what they did), custom messages, and earlier branch and compaction summaries.
 */
public final class SummaryContent {

	/** The summary of a branch with none of those: written without asking a model, as upstream does. */
	public static final String NOTHING_TO_SUMMARIZE = "No content to summarize";

	private static final String TOOL_RESULT = "toolResult";

	private SummaryContent() {
	}

	public static boolean isSummarized(EntryLine entry) {
		return switch (entry.type()) {
			case EntryTypes.MESSAGE -> entry.messageRole() != null && !TOOL_RESULT.equals(entry.messageRole());
			case EntryTypes.CUSTOM_MESSAGE, EntryTypes.BRANCH_SUMMARY, EntryTypes.COMPACTION -> true;
			default -> false;
		};
	}

	public static boolean hasMessages(List<EntryLine> entries) {
		return entries.stream().anyMatch(SummaryContent::isSummarized);
	}

}

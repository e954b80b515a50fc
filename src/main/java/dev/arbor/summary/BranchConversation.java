package dev.arbor.summary;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import dev.arbor.session.ContextMessage;
import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryMessages;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import tools.jackson.databind.JsonNode;

/**
 * The abandoned conversation as the summary model reads it (docs/SESSION-FORMAT.md#navigation): the messages of the
 * abandoned entries as a model sees them, newest first within a token budget, as a plain transcript. A plain
 * transcript rather than chat messages, so that the model summarizes the conversation instead of continuing it.
 *
 * @param transcript the messages that fit, oldest first
 * @param messages how many messages the transcript holds
 * @param dropped how many older messages did not fit
 * @param tokens the estimated tokens of the transcript
 */
record BranchConversation(String transcript, int messages, int dropped, int tokens) {

	/**
	 * Walks the entries from the newest and keeps messages while they fit, as upstream does: a summary entry
	 * that does not fit still goes in while less than 90% of the budget is used, and then the walk stops. The
	 * newest message alone larger than the budget goes in cut to it, rather than leaving nothing to summarize.
	 *
	 * @param entries the abandoned entries, oldest first
	 * @param tokenBudget the most tokens the transcript may take (characters / 4)
	 */
	static BranchConversation of(List<EntryLine> entries, int tokenBudget) {
		Deque<String> kept = new ArrayDeque<>();
		int tokens = 0;
		int older = entries.size();
		for (int i = entries.size() - 1; i >= 0; i--) {
			EntryLine entry = entries.get(i);
			String text = render(entry);
			if (text.isEmpty()) {
				older = i;
				continue;
			}
			int cost = Transcript.estimateTokens(text);
			if (tokens + cost > tokenBudget) {
				if (kept.isEmpty()) {
					// Room for the truncation note (at most 48 characters), so the cut message stays within the budget.
					text = Transcript.truncate(text, Math.max(tokenBudget * 2, tokenBudget * 4 - 48));
					cost = Transcript.estimateTokens(text);
				}
				else if (!isSummary(entry) || tokens >= tokenBudget * 0.9) {
					break;
				}
				kept.addFirst(text);
				tokens += cost;
				older = i;
				break;
			}
			kept.addFirst(text);
			tokens += cost;
			older = i;
		}
		int dropped = (int) entries.subList(0, older).stream().filter(SummaryContent::isSummarized).count();
		return new BranchConversation(String.join("\n\n", kept), kept.size(), dropped, tokens);
	}

	/** The transcript part of one entry; empty for entries a summary is not made of (tool results among them). */
	private static String render(EntryLine entry) {
		if (!SummaryContent.isSummarized(entry)) {
			return "";
		}
		ContextMessage message = EntryMessages.of(entry);
		ContextMessage forModel = (message != null) ? EntryMessages.forModel(message) : null;
		if (forModel == null) {
			return "";
		}
		JsonNode node = (forModel instanceof ContextMessage.Stored stored) ? stored.entry().messageNode()
				: Json.MAPPER.readTree(forModel.toJson());
		return Transcript.render(node);
	}

	private static boolean isSummary(EntryLine entry) {
		return entry.isType(EntryTypes.COMPACTION) || entry.isType(EntryTypes.BRANCH_SUMMARY);
	}

}

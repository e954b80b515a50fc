package dev.arbor.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The message one entry stands for, in the agent's view (docs/SESSION-FORMAT.md#the-model-context) and in the model's
 * (docs/SESSION-FORMAT.md#the-llm-view). The context builder places these along a path; a branch summary
 * (docs/SESSION-FORMAT.md#navigation) converts the entries of an abandoned branch, where any compaction is a summary
 * worth reading.
 */
public final class EntryMessages {

	private EntryMessages() {
	}

	/**
	 * The agent-view message: a {@code message} entry's message, a {@code custom_message}, a
	 * {@code branch_summary} with a summary, or a {@code compaction}'s summary.
	 *
	 * @return the message, or {@code null} for an entry that stands for none
	 */
	public static @Nullable ContextMessage of(EntryLine entry) {
		return entry.isType(EntryTypes.COMPACTION) ? compactionSummary(entry) : pathMessage(entry);
	}

	/**
	 * The same message as a model receives it.
	 *
	 * @return the message, or {@code null} when a model is not shown it (a bash execution excluded from the
	 * context, a role it does not know)
	 */
	public static @Nullable ContextMessage forModel(ContextMessage message) {
		return ModelView.convert(message);
	}

	/**
	 * What a path entry other than the latest compaction contributes to a context
	 * (docs/SESSION-FORMAT.md#the-model-context).
	 */
	static @Nullable ContextMessage pathMessage(EntryLine entry) {
		switch (entry.type()) {
			case EntryTypes.MESSAGE -> {
				return entry.hasMessageObject() ? new ContextMessage.Stored(entry) : null;
			}
			case EntryTypes.CUSTOM_MESSAGE -> {
				return new ContextMessage.Custom(entry.toNode(), entry.timestamp());
			}
			case EntryTypes.BRANCH_SUMMARY -> {
				ObjectNode node = entry.toNode();
				String summary = Json.text(node, "summary");
				return (summary != null && !summary.isEmpty())
						? new ContextMessage.BranchSummary(summary, Json.text(node, "fromId"), entry.timestamp()) : null;
			}
			default -> {
				return null;
			}
		}
	}

	static ContextMessage.CompactionSummary compactionSummary(EntryLine compaction) {
		return compactionSummary(compaction, compaction.toNode());
	}

	/** The same from the entry's parsed fields, for a caller that reads others of them too. */
	static ContextMessage.CompactionSummary compactionSummary(EntryLine compaction, ObjectNode node) {
		String summary = Json.text(node, "summary");
		return new ContextMessage.CompactionSummary((summary != null) ? summary : "", node.get("tokensBefore"),
				compaction.timestamp());
	}

}

package dev.arbor.events;

import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryLists;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code session_before_tree} preparation (docs/SESSION-FORMAT.md#navigation): what the navigation is about to do.
 * Hooks get all of it; the event streams get {@link #eventData()}, which is bounded.
 *
 * @param sessionId the session
 * @param targetId the entry navigated to
 * @param oldLeafId the leaf before
 * @param commonAncestorId the deepest entry on both paths
 * @param entriesToSummarize the abandoned entries, root first, as stored: every one of them, however many
 * @param userWantsSummary whether the navigation asked for a summary
 * @param customInstructions the user's instructions for the summary, or {@code null}
 */
public record TreePreparation(String sessionId, String targetId, @Nullable String oldLeafId,
		@Nullable String commonAncestorId, List<EntryLine> entriesToSummarize, boolean userWantsSummary,
		@Nullable String customInstructions) {

	/**
	 * The most ids of abandoned entries a {@code session_before_tree} event lists
	 * (docs/API.md#events-server-sent-events).
	 */
	public static final int EVENT_ID_LIMIT = 100;

	public TreePreparation {
		entriesToSummarize = EntryLists.immutable(entriesToSummarize);
	}

	/**
	 * The data of the {@code session_before_tree} event, without {@code sessionId}: the count of abandoned entries,
	 * the first and the last, and the ids of the first {@value #EVENT_ID_LIMIT}. Listing every id made the event
	 * of a 400,000-entry branch 4 MB, sent to every subscriber and kept for replay; the full list is the old leaf's
	 * path below the common ancestor, which a client can read, and hooks get the entries themselves.
	 */
	public ObjectNode eventData() {
		int count = this.entriesToSummarize.size();
		ArrayNode leadingIds = Json.MAPPER.createArrayNode();
		for (EntryLine entry : this.entriesToSummarize.subList(0, Math.min(count, EVENT_ID_LIMIT))) {
			leadingIds.add(entry.id());
		}
		return Json.newObject()
			.put("targetId", this.targetId)
			.put("oldLeafId", this.oldLeafId)
			.put("commonAncestorId", this.commonAncestorId)
			.put("entriesToSummarizeCount", count)
			.put("firstEntryIdToSummarize", (count > 0) ? this.entriesToSummarize.get(0).id() : null)
			.put("lastEntryIdToSummarize", (count > 0) ? this.entriesToSummarize.get(count - 1).id() : null)
			.<ObjectNode>set("leadingEntryIdsToSummarize", leadingIds)
			.put("entryIdsToSummarizeTruncated", count > EVENT_ID_LIMIT)
			.put("userWantsSummary", this.userWantsSummary);
	}

}

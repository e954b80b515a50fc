package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What navigating to an entry would do, worked out from the tree without changing it
 * (docs/SESSION-FORMAT.md#navigation, steps 2 and 3): the entries abandoned, where the leaf goes and the text handed
 * back to the editor.
 *
 * @param targetId the entry navigated to
 * @param oldLeafId the leaf before
 * @param commonAncestorId the deepest entry on both the target's and the old leaf's path, the target included
 * @param entriesToSummarize the old leaf's path below the common ancestor, root first (all of it when there is
 * no common ancestor, none when the old leaf is null)
 * @param newLeafId the new position: the target's parent for a user or custom message, else the target
 * @param editorText the text of a user or custom message target
 * @param noOp whether the target is the leaf already, so that nothing happens at all
 */
public record NavigationPlan(String targetId, @Nullable String oldLeafId, @Nullable String commonAncestorId,
		List<EntryLine> entriesToSummarize, @Nullable String newLeafId, @Nullable String editorText, boolean noOp) {

	private static final String USER = "user";

	public NavigationPlan {
		entriesToSummarize = EntryLists.immutable(entriesToSummarize);
	}

	/**
	 * Plans a navigation of the tree to the target.
	 *
	 * @throws EntryNotFoundException when the target is not an entry of the tree
	 */
	public static NavigationPlan of(SessionTree tree, String targetId) {
		int target = tree.requirePosition(targetId);
		String oldLeafId = tree.leafId();
		if (targetId.equals(oldLeafId)) {
			return new NavigationPlan(targetId, oldLeafId, targetId, List.of(), oldLeafId, null, true);
		}
		int oldLeaf = (oldLeafId != null) ? tree.positionOf(oldLeafId) : -1;
		PathWalk.Fork fork = PathWalk.fork(tree, oldLeaf, target);
		String commonAncestorId = (fork.commonAncestor() != -1) ? tree.at(fork.commonAncestor()).id() : null;
		List<EntryLine> abandoned = tree.toEntries(fork.abandoned());
		EntryLine entry = tree.at(target);
		boolean returnsText = isUserMessage(entry) || entry.isType(EntryTypes.CUSTOM_MESSAGE);
		// A parent that names no entry (or the entry itself) makes the target a root (docs/SESSION-FORMAT.md#the-tree):
		// the path decides.
		String parentId = (fork.targetParent() != -1) ? tree.at(fork.targetParent()).id() : null;
		String newLeafId = returnsText ? parentId : targetId;
		String editorText = returnsText ? editorText(entry) : null;
		return new NavigationPlan(targetId, oldLeafId, commonAncestorId, abandoned, newLeafId, editorText, false);
	}

	/** The ids of {@link #entriesToSummarize()}, as dry runs show them. */
	public List<String> entryIdsToSummarize() {
		return this.entriesToSummarize.stream().map(EntryLine::id).toList();
	}

	/**
	 * Whether the entry is a {@code message} from the user: the kind {@code /branch} starts from
	 * (docs/SESSION-FORMAT.md#branching-and-forking).
	 */
	public static boolean isUserMessage(EntryLine entry) {
		return entry.isType(EntryTypes.MESSAGE) && USER.equals(entry.messageRole());
	}

	/**
	 * The text a user or custom message puts back in the editor: string content as is, else its text blocks
	 * joined without separator, as upstream does.
	 */
	public static String editorText(EntryLine entry) {
		JsonNode content = entry.isType(EntryTypes.MESSAGE) ? entry.messageNode().get("content")
				: entry.toNode().get("content");
		if (content == null) {
			return "";
		}
		if (content.isString()) {
			return content.asString();
		}
		StringBuilder text = new StringBuilder();
		if (content.isArray()) {
			for (JsonNode block : content) {
				String blockText = Json.text(block, "text");
				if ("text".equals(Json.text(block, "type")) && blockText != null) {
					text.append(blockText);
				}
			}
		}
		return text.toString();
	}

}

package dev.arbor.storage;

import java.time.InstantSource;
import java.util.List;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTree;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an append plans against the tree, the same in every store: a store runs the plan where it has the tree up to
 * date and the session to itself, then writes what it returns.
 */
public final class AppendPlans {

	private AppendPlans() {
	}

	/** {@link SessionStore#append}: the drafts as entries after the leaf. */
	public static Function<SessionTree, List<EntryLine>> entries(List<ObjectNode> drafts, InstantSource clock) {
		return tree -> tree.prepareAppend(drafts, clock.instant());
	}

	/** {@link SessionStore#appendBranchSummary}: one {@code branch_summary} at {@code fromId}. */
	public static Function<SessionTree, List<EntryLine>> branchSummary(@Nullable String fromId, String summary,
			@Nullable JsonNode details, @Nullable Boolean fromExtension, InstantSource clock) {
		return tree -> List.of(tree.prepareBranchSummary(fromId, summary, details, fromExtension, clock.instant()));
	}

}

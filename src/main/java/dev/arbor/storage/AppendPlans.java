package dev.arbor.storage;

import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.KeyedAppend;
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

	/**
	 * {@link SessionStore#append(String, ExpectedLeaf, List, IdempotencyKey)}: under a key, the entries get the ids
	 * derived from it, unless an earlier append under it stored these drafts already: then the plan ends with
	 * {@link AlreadyAppendedException}, and the store writes nothing. Checked here, where the store has the session to
	 * itself, so that two attempts that race (on two replicas, say) append once.
	 */
	public static Function<SessionTree, List<EntryLine>> entries(String sessionId, List<ObjectNode> drafts,
			@Nullable IdempotencyKey key, InstantSource clock) {
		if (key == null) {
			return entries(drafts, clock);
		}
		KeyedAppend keyed = KeyedAppend.of(sessionId, key.value());
		return tree -> {
			Optional<List<EntryLine>> earlier = keyed.find(tree, drafts);
			if (earlier.isPresent()) {
				throw new AlreadyAppendedException(earlier.get());
			}
			return tree.prepareAppend(drafts, clock.instant(), keyed);
		};
	}

	/** {@link SessionStore#appendBranchSummary}: one {@code branch_summary} at {@code fromId}. */
	public static Function<SessionTree, List<EntryLine>> branchSummary(@Nullable String fromId, String summary,
			@Nullable JsonNode details, @Nullable Boolean fromExtension, InstantSource clock) {
		return tree -> List.of(tree.prepareBranchSummary(fromId, summary, details, fromExtension, clock.instant()));
	}

}

package dev.arbor.operations;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import dev.arbor.events.EventBus;
import dev.arbor.events.EventType;
import dev.arbor.events.HookAnswer;
import dev.arbor.events.SessionHooks;
import dev.arbor.events.TreePreparation;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.NavigationPlan;
import dev.arbor.session.SessionContext;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LeafMovedException;
import dev.arbor.storage.NavigationLease;
import dev.arbor.storage.SessionStore;
import dev.arbor.summary.BranchSummarizer;
import dev.arbor.summary.BranchSummary;
import dev.arbor.summary.SummaryContent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import tools.jackson.databind.node.ObjectNode;

/**
 * Navigation inside a session, {@code navigateTree} step by step as docs/SESSION-FORMAT.md#navigation says: validate,
 * work out the abandoned entries and the new leaf, ask the hooks ({@code session_before_tree}), summarize, apply, and
 * tell ({@code session_tree}). A navigation holds its session's gate throughout, so no other write lands between
 * reading the leaf and moving it; it can be aborted by its {@code requestId} until it starts applying.
 */
@Service
public class Navigator {

	/** How often a navigation without {@code If-Match} tries to apply at the leaf it last saw before it no longer asks. */
	private static final int APPLY_ATTEMPTS = 3;

	private final SessionStore store;

	private final SessionGates gates;

	private final InFlightNavigations inFlight;

	private final EventBus bus;

	private final SessionHooks hooks;

	private final @Nullable BranchSummarizer summarizer;

	private final MeterRegistry meters;

	/**
	 * @param summarizer the summary model, if one is configured
	 * @param meters records each navigation as {@code arbor.navigations}, by outcome
	 */
	public Navigator(SessionStore store, SessionGates gates, InFlightNavigations inFlight, EventBus bus,
			SessionHooks hooks, Optional<BranchSummarizer> summarizer, MeterRegistry meters) {
		this.store = store;
		this.gates = gates;
		this.inFlight = inFlight;
		this.bus = bus;
		this.hooks = hooks;
		this.summarizer = summarizer.orElse(null);
		this.meters = meters;
	}

	/**
	 * The dry run: what {@link #navigate} would do now, without hooks or summary, changing nothing.
	 *
	 * @throws dev.arbor.session.EntryNotFoundException for an unknown target
	 * @throws NoSummaryModelException when a summary is asked for and no model is configured
	 */
	public NavigationPlan prepare(String sessionId, ExpectedLeaf expected, NavigationRequest request) {
		return plan(sessionId, expected, request);
	}

	/**
	 * Navigates.
	 *
	 * @param contextFormat the view of the rebuilt context to return, or {@code null} for none
	 * @throws dev.arbor.session.EntryNotFoundException for an unknown target
	 * @throws NoSummaryModelException when a summary is asked for and no model is configured
	 * @throws SummaryFailedException when the model failed
	 */
	public NavigationOutcome navigate(String sessionId, ExpectedLeaf expected, NavigationRequest request,
			@Nullable ContextFormat contextFormat) {
		Timer.Sample sample = Timer.start(this.meters);
		String outcome = "failed";
		InFlightNavigations.InFlight navigation = this.inFlight.start(sessionId, request.requestId());
		try {
			NavigationOutcome done = navigateGuarded(sessionId, expected, request, contextFormat, navigation);
			outcome = outcome(done);
			return done;
		}
		finally {
			this.inFlight.finish(navigation);
			sample.stop(Timer.builder("arbor.navigations")
				.description("Navigations by outcome: moved, summarized, unchanged (to the leaf), cancelled (by a hook), aborted, failed")
				.tag("outcome", outcome)
				.register(this.meters));
		}
	}

	private NavigationOutcome navigateGuarded(String sessionId, ExpectedLeaf expected, NavigationRequest request,
			@Nullable ContextFormat contextFormat, InFlightNavigations.InFlight navigation) {
		try {
			return this.gates.exclusive(sessionId, navigation.aborted(), () -> {
				// Other instances sharing the store wait too; an abort sent to one of them reaches this navigation.
				try (NavigationLease lease = this.store.holdForNavigation(sessionId, request.requestId(),
						navigation.aborted())) {
					lease.aborted().thenRun(navigation::abort);
					return navigateAlone(sessionId, expected, request, contextFormat, navigation, lease);
				}
			});
		}
		catch (CancellationException ex) {
			return NavigationOutcome.cancelled(this.store.get(sessionId).leafId(), true);
		}
	}

	private static String outcome(NavigationOutcome done) {
		if (done.aborted()) {
			return "aborted";
		}
		if (done.cancelled()) {
			return "cancelled";
		}
		if (done.summaryEntry() != null) {
			return "summarized";
		}
		return Objects.equals(done.oldLeafId(), done.newLeafId()) ? "unchanged" : "moved";
	}

	private NavigationOutcome navigateAlone(String sessionId, ExpectedLeaf expected, NavigationRequest request,
			@Nullable ContextFormat contextFormat, InFlightNavigations.InFlight navigation, NavigationLease lease) {
		NavigationPlan plan = plan(sessionId, expected, request);
		if (plan.noOp()) {
			return new NavigationOutcome(false, false, plan.oldLeafId(), plan.oldLeafId(), null, null, null,
					context(sessionId, contextFormat));
		}
		TreePreparation preparation = new TreePreparation(sessionId, plan.targetId(), plan.oldLeafId(),
				plan.commonAncestorId(), plan.entriesToSummarize(), request.summarize(), request.customInstructions());
		this.bus.publish(EventType.SESSION_BEFORE_TREE, sessionId, preparation.eventData());
		HookAnswer answer = this.hooks.beforeTree(preparation, navigation.aborted());
		if (answer.cancel()) {
			return NavigationOutcome.cancelled(plan.oldLeafId(), false);
		}
		boolean fromExtension = request.summarize() && answer.summary() != null;
		BranchSummary summary = fromExtension
				? new BranchSummary(answer.summary().summary(), answer.summary().details())
				: summarizeIfAsked(request, plan, navigation);
		// Decided against an abort sent to this instance, then against one sent to another (docs/API.md#navigation):
		// after both, every abort is told it came too late.
		if (!navigation.commit() || !lease.commit()) {
			throw new CancellationException("Aborted");
		}
		Applied applied = apply(sessionId, expected, plan, summary, fromExtension);
		EntryLine summaryEntry = applied.summaryEntry();
		String newLeafId = (summaryEntry != null) ? summaryEntry.id() : plan.newLeafId();
		ObjectNode tree = Json.newObject().put("newLeafId", newLeafId).put("oldLeafId", applied.oldLeafId());
		if (summaryEntry != null) {
			tree.set("summaryEntry", summaryEntry.toNode());
			tree.put("fromExtension", fromExtension);
		}
		this.bus.publish(EventType.SESSION_TREE, sessionId, tree);
		return new NavigationOutcome(false, false, applied.oldLeafId(), newLeafId, plan.editorText(), summaryEntry,
				(summaryEntry != null) ? fromExtension : null, context(sessionId, contextFormat));
	}

	/**
	 * Steps 1 to 3 of docs/SESSION-FORMAT.md#navigation, checked in its order: unknown target, no-op, no summary model.
	 */
	private NavigationPlan plan(String sessionId, ExpectedLeaf expected, NavigationRequest request) {
		NavigationPlan plan = this.store.read(sessionId, tree -> {
			expected.check(sessionId, tree.leafId());
			return NavigationPlan.of(tree, request.targetId());
		});
		if (!plan.noOp() && request.summarize() && this.summarizer == null) {
			throw new NoSummaryModelException();
		}
		return plan;
	}

	/**
	 * Step 5 of docs/SESSION-FORMAT.md#navigation: the built-in summary, only when asked for and there is something to
	 * summarize.
	 */
	private @Nullable BranchSummary summarizeIfAsked(NavigationRequest request, NavigationPlan plan,
			InFlightNavigations.InFlight navigation) {
		List<EntryLine> entries = plan.entriesToSummarize();
		if (!request.summarize() || entries.isEmpty() || this.summarizer == null) {
			return null;
		}
		if (!SummaryContent.hasMessages(entries)) {
			return new BranchSummary(SummaryContent.NOTHING_TO_SUMMARIZE, Json.newObject()
				.<ObjectNode>set("readFiles", Json.MAPPER.createArrayNode())
				.set("modifiedFiles", Json.MAPPER.createArrayNode()));
		}
		CompletableFuture<BranchSummary> summary = this.summarizer.summarize(entries, request.customInstructions());
		try {
			CompletableFuture.anyOf(summary, navigation.aborted()).get();
			if (!summary.isDone()) {
				throw new CancellationException("Aborted");
			}
			return summary.join();
		}
		catch (ExecutionException | CompletionException ex) {
			throw new SummaryFailedException(this.summarizer.provider(), (ex.getCause() != null) ? ex.getCause() : ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new CancellationException("Interrupted");
		}
		finally {
			summary.cancel(true);
		}
	}

	/**
	 * Step 6 of docs/SESSION-FORMAT.md#navigation: a summary is attached at the new position, never at the tip of the
	 * abandoned branch. Conditional on the leaf planned against: the gate keeps Arbor's own writes out, but not a
	 * coding agent appending to the session's file while the hooks and the model ran. With {@code If-Match} that is a
	 * moved leaf (412). Without, the navigation applies to whatever the leaf is
	 * (docs/API.md#versions-etag-and-if-match): the new position depends on the target alone, and the summary stays the
	 * one of the branch as the hooks and the model were shown it. The move is still made conditional on the leaf it was
	 * last seen to be, so that the answer names the leaf it really moved from; only an agent that keeps moving it
	 * between attempts gets an unconditional move.
	 */
	private Applied apply(String sessionId, ExpectedLeaf expected, NavigationPlan plan,
			@Nullable BranchSummary summary, boolean fromExtension) {
		@Nullable String from = plan.oldLeafId();
		for (int attempt = 1;; attempt++) {
			ExpectedLeaf at = (attempt < APPLY_ATTEMPTS) ? ExpectedLeaf.of(from) : ExpectedLeaf.ANY;
			try {
				if (summary != null && !summary.summary().isEmpty()) {
					return new Applied(from, this.store.appendBranchSummary(sessionId, at, plan.newLeafId(),
							summary.summary(), summary.details(), fromExtension));
				}
				this.store.moveLeaf(sessionId, at, plan.newLeafId());
				return new Applied(from, null);
			}
			catch (LeafMovedException ex) {
				if (!expected.any()) {
					throw ex;
				}
				from = ex.actualLeafId();
			}
		}
	}

	/** What applying did: the leaf it moved from, and the summary it wrote, if any. */
	private record Applied(@Nullable String oldLeafId, @Nullable EntryLine summaryEntry) {
	}

	private @Nullable SessionContext context(String sessionId, @Nullable ContextFormat format) {
		if (format == null) {
			return null;
		}
		SessionContext context = this.store.read(sessionId, tree -> tree.buildSessionContext());
		return (format == ContextFormat.LLM) ? context.forModel() : context;
	}

	/**
	 * Aborts the navigation running under the client's id, on this instance or on another that shares the store.
	 *
	 * @throws NavigationNotFoundException when none runs under that id, or it is applying its result already
	 */
	public void abort(String sessionId, String requestId) {
		this.store.get(sessionId);
		if (!this.inFlight.abort(sessionId, requestId) && !this.store.abortNavigation(sessionId, requestId)) {
			throw new NavigationNotFoundException(sessionId, requestId);
		}
	}

}

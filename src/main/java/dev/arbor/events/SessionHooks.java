package dev.arbor.events;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.task.AsyncTaskExecutor;

/**
 * Runs the hooks for a {@code session_before_*} event with the sequential semantics of docs/API.md#hooks-and-webhooks:
 * in registration order, the first {@code cancel} ends the run, otherwise the last hook that answered decides. Each
 * hook runs on a thread of its own, so that a hook that hangs costs its timeout and no more, and an aborted
 * navigation stops waiting at once (the hook's thread is interrupted).
 */
public final class SessionHooks {

	private static final Log logger = LogFactory.getLog(SessionHooks.class);

	private final List<SessionHook> hooks;

	private final AsyncTaskExecutor executor;

	private final MeterRegistry meters;

	/**
	 * @param hooks in the order they run
	 * @param executor runs each hook call
	 * @param meters records each call as {@code arbor.hook.calls}, by hook, event and outcome
	 */
	public SessionHooks(List<SessionHook> hooks, AsyncTaskExecutor executor, MeterRegistry meters) {
		this.hooks = List.copyOf(hooks);
		this.executor = executor;
		this.meters = meters;
	}

	/**
	 * Asks the hooks about a navigation.
	 *
	 * @param abort completes when the navigation is aborted
	 * @throws CancellationException when it was aborted before the hooks were done
	 */
	public HookAnswer beforeTree(TreePreparation preparation, CompletableFuture<?> abort) {
		return run(EventType.SESSION_BEFORE_TREE, preparation.sessionId(), abort,
				hook -> hook.beforeTree(preparation));
	}

	/** Asks the hooks about a branch into a new session. */
	public HookAnswer beforeBranch(BranchPreparation preparation) {
		return run(EventType.SESSION_BEFORE_BRANCH, preparation.sessionId(), new CompletableFuture<>(),
				hook -> hook.beforeBranch(preparation));
	}

	private HookAnswer run(EventType event, String sessionId, CompletableFuture<?> abort, HookCall call) {
		HookAnswer answer = HookAnswer.NONE;
		for (SessionHook hook : this.hooks) {
			if (!hook.answers(event)) {
				continue;
			}
			HookAnswer next = ask(hook, event, sessionId, abort, call);
			if (next.isAnswer()) {
				answer = next;
				if (answer.cancel()) {
					return answer;
				}
			}
		}
		return answer;
	}

	private HookAnswer ask(SessionHook hook, EventType event, String sessionId, CompletableFuture<?> abort,
			HookCall call) {
		if (abort.isDone()) {
			throw new CancellationException("Aborted");
		}
		Timer.Sample sample = Timer.start(this.meters);
		String outcome = "failed";
		CompletableFuture<HookAnswer> answer = new CompletableFuture<>();
		Future<?> task = this.executor.submit(() -> {
			try {
				HookAnswer result = call.ask(hook);
				answer.complete((result != null) ? result : HookAnswer.NONE);
			}
			catch (Throwable ex) {
				answer.completeExceptionally(ex);
			}
		});
		try {
			CompletableFuture.anyOf(answer, abort).get(hook.timeout().toNanos(), TimeUnit.NANOSECONDS);
			if (!answer.isDone()) {
				outcome = "aborted";
				throw new CancellationException("Aborted");
			}
			HookAnswer result = answer.join();
			outcome = result.cancel() ? "cancel" : (result.summary() != null) ? "summary" : "none";
			return result;
		}
		catch (TimeoutException ex) {
			outcome = "timeout";
			logger.warn("Hook " + hook.name() + " gave no answer to " + event.wireName() + " of session " + sessionId
					+ " within " + hook.timeout() + "; counted as no answer");
			return HookAnswer.NONE;
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			if (abort.isDone() && !answer.isDone()) {
				outcome = "aborted";
				throw new CancellationException("Aborted");
			}
			logger.warn("Hook " + hook.name() + " failed on " + event.wireName() + " of session " + sessionId
					+ "; counted as no answer: " + cause, cause);
			return HookAnswer.NONE;
		}
		catch (InterruptedException ex) {
			outcome = "aborted";
			Thread.currentThread().interrupt();
			throw new CancellationException("Interrupted");
		}
		finally {
			task.cancel(true);
			sample.stop(Timer.builder("arbor.hook.calls")
				.description("Calls of hooks by hook, event and outcome (cancel, summary, none, timeout, failed, aborted)")
				.tags("hook", hook.name(), "event", event.wireName(), "outcome", outcome)
				.register(this.meters));
		}
	}

	@FunctionalInterface
	private interface HookCall {

		HookAnswer ask(SessionHook hook) throws Exception;

	}

}

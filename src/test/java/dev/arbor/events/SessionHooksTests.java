package dev.arbor.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.Json;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Running hooks for the {@code session_before_*} events (docs/API.md#hooks-and-webhooks): in order, the first cancel
 * ends the run, otherwise the last answer decides; a failing or timed-out hook counts as no answer, and an abort
 * stops waiting at once and interrupts the hook.
 */
class SessionHooksTests {

	private static final TreePreparation TREE = new TreePreparation("s1", "target", "old", "ancestor", List.of(),
			true, "be brief");

	private static final BranchPreparation BRANCH = new BranchPreparation("s1", "u1");

	/** Hooks that block wait on this; released after each test so no thread outlives it. */
	private final CountDownLatch never = new CountDownLatch(1);

	private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

	private final ExecutorService caller = Executors.newSingleThreadExecutor();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	@AfterEach
	void releaseBlockedHooks() {
		this.never.countDown();
		this.caller.shutdownNow();
	}

	@Test
	void beforeTreeShouldRunHooksInOrderAndPassThePreparation() {
		List<TreePreparation> seen = Collections.synchronizedList(new ArrayList<>());
		SessionHooks hooks = hooks(hook("first", (preparation) -> {
			seen.add(preparation);
			return HookAnswer.NONE;
		}), hook("second", (preparation) -> HookAnswer.NONE), hook("third", (preparation) -> HookAnswer.NONE));
		assertThat(hooks.beforeTree(TREE, new CompletableFuture<>())).isEqualTo(HookAnswer.NONE);
		assertThat(this.calls).containsExactly("first", "second", "third");
		assertThat(seen).containsExactly(TREE);
	}

	@Test
	void beforeTreeWithoutHooksShouldAnswerNone() {
		assertThat(hooks().beforeTree(TREE, new CompletableFuture<>())).isEqualTo(HookAnswer.NONE);
		assertThat(hooks().beforeBranch(BRANCH)).isEqualTo(HookAnswer.NONE);
	}

	@Test
	void beforeTreeWhenAHookCancelsShouldStopTheRun() {
		SessionHooks hooks = hooks(hook("summary", (preparation) -> HookAnswer.summary("s", null)),
				hook("cancel", (preparation) -> HookAnswer.CANCEL), hook("later", (preparation) -> HookAnswer.summary(
						"never", null)));
		HookAnswer answer = hooks.beforeTree(TREE, new CompletableFuture<>());
		assertThat(answer.cancel()).isTrue();
		assertThat(answer.summary()).isNull();
		assertThat(this.calls).containsExactly("summary", "cancel");
	}

	@Test
	void beforeTreeShouldTakeTheLastAnswerAndIgnoreHooksThatGiveNone() {
		SessionHooks hooks = hooks(hook("a", (preparation) -> HookAnswer.summary("first", null)),
				hook("none", (preparation) -> HookAnswer.NONE),
				hook("b", (preparation) -> HookAnswer.summary("second", Json.newObject().put("k", 1))),
				hook("none again", (preparation) -> HookAnswer.NONE), hook("null", (preparation) -> null));
		HookAnswer answer = hooks.beforeTree(TREE, new CompletableFuture<>());
		assertThat(answer.cancel()).isFalse();
		assertThat(answer.summary()).isNotNull();
		assertThat(answer.summary().summary()).isEqualTo("second");
		assertThat(Json.toString(answer.summary().details())).isEqualTo("{\"k\":1}");
		assertThat(this.calls).containsExactly("a", "none", "b", "none again", "null");
	}

	@Test
	void beforeTreeWhenOnlyAnEarlyHookAnswersShouldKeepItsSummary() {
		SessionHooks hooks = hooks(hook("a", (preparation) -> HookAnswer.summary("kept", null)),
				hook("none", (preparation) -> HookAnswer.NONE), hook("null", (preparation) -> null));
		assertThat(hooks.beforeTree(TREE, new CompletableFuture<>()).summary().summary()).isEqualTo("kept");
	}

	@Test
	void beforeTreeWhenAHookThrowsShouldCountItAsNoAnswerAndRunTheLaterOnes() {
		SessionHooks hooks = hooks(hook("summary", (preparation) -> HookAnswer.summary("kept", null)),
				hook("throws", (preparation) -> {
					throw new IllegalStateException("boom");
				}), hook("checked", (preparation) -> {
					throw new java.io.IOException("down");
				}), hook("error", (preparation) -> {
					throw new AssertionError("error");
				}), hook("last", (preparation) -> HookAnswer.NONE));
		HookAnswer answer = hooks.beforeTree(TREE, new CompletableFuture<>());
		assertThat(answer.summary().summary()).isEqualTo("kept");
		assertThat(this.calls).containsExactly("summary", "throws", "checked", "error", "last");
	}

	@Test
	void eachCallShouldBeCountedByHookEventAndOutcome() {
		TestHook slow = new TestHook("slow", Duration.ofMillis(100), Set.of(EventType.values()), (preparation) -> {
			sleepUnlessInterrupted(new CountDownLatch(1));
			return HookAnswer.NONE;
		});
		SessionHooks hooks = hooks(hook("summary", (preparation) -> HookAnswer.summary("s", null)),
				hook("throws", (preparation) -> {
					throw new IllegalStateException("boom");
				}), slow, hook("none", (preparation) -> HookAnswer.NONE), hook("cancel", (preparation) -> HookAnswer.CANCEL));
		hooks.beforeTree(TREE, new CompletableFuture<>());
		assertThat(calls("summary", "summary")).isEqualTo(1);
		assertThat(calls("throws", "failed")).isEqualTo(1);
		assertThat(calls("slow", "timeout")).isEqualTo(1);
		assertThat(calls("none", "none")).isEqualTo(1);
		assertThat(calls("cancel", "cancel")).isEqualTo(1);
	}

	private long calls(String hook, String outcome) {
		return this.meters.get("arbor.hook.calls")
			.tags("hook", hook, "event", "session_before_tree", "outcome", outcome)
			.timer()
			.count();
	}

	@Test
	void beforeTreeWhenAHookThrowsAndALaterOneCancelsShouldCancel() {
		SessionHooks hooks = hooks(hook("throws", (preparation) -> {
			throw new IllegalStateException("boom");
		}), hook("cancel", (preparation) -> HookAnswer.CANCEL));
		assertThat(hooks.beforeTree(TREE, new CompletableFuture<>()).cancel()).isTrue();
	}

	@Test
	void beforeTreeWhenAHookOutlivesItsTimeoutShouldCountItAsNoAnswerAndInterruptIt() {
		CountDownLatch interrupted = new CountDownLatch(1);
		TestHook slow = new TestHook("slow", Duration.ofMillis(200), Set.of(EventType.values()), (preparation) -> {
			sleepUnlessInterrupted(interrupted);
			return HookAnswer.CANCEL;
		});
		SessionHooks hooks = hooks(hook("summary", (preparation) -> HookAnswer.summary("kept", null)), slow,
				hook("after", (preparation) -> HookAnswer.NONE));
		long start = System.nanoTime();
		HookAnswer answer = hooks.beforeTree(TREE, new CompletableFuture<>());
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(answer.cancel()).isFalse();
		assertThat(answer.summary().summary()).isEqualTo("kept");
		assertThat(took).isLessThan(Duration.ofSeconds(10)); // the hook would have slept 30 s
		assertThat(this.calls).containsExactly("summary", "slow", "after");
		assertThat(await(interrupted)).as("the timed-out hook's thread was interrupted").isTrue();
	}

	@Test
	void beforeTreeWhenAbortedWhileAHookIsBlockedShouldThrowCancellationAndInterruptTheHook() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		SessionHooks hooks = hooks(hook("blocked", (preparation) -> {
			started.countDown();
			sleepUnlessInterrupted(interrupted);
			return HookAnswer.NONE;
		}), hook("after", (preparation) -> HookAnswer.NONE));
		CompletableFuture<Void> abort = new CompletableFuture<>();
		Future<HookAnswer> run = this.caller.submit(() -> hooks.beforeTree(TREE, abort));
		assertThat(await(started)).isTrue();
		long start = System.nanoTime();
		abort.complete(null);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> run.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(CancellationException.class);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
		assertThat(await(interrupted)).as("the blocked hook's thread was interrupted").isTrue();
		assertThat(this.calls).containsExactly("blocked");
	}

	@Test
	void beforeTreeWhenTheAbortFutureIsCancelledShouldThrowCancellationAndInterruptTheHook() throws Exception {
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		SessionHooks hooks = hooks(hook("blocked", (preparation) -> {
			started.countDown();
			sleepUnlessInterrupted(interrupted);
			return HookAnswer.NONE;
		}));
		CompletableFuture<Void> abort = new CompletableFuture<>();
		Future<HookAnswer> run = this.caller.submit(() -> hooks.beforeTree(TREE, abort));
		assertThat(await(started)).isTrue();
		abort.cancel(true);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> run.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(CancellationException.class);
		assertThat(await(interrupted)).isTrue();
	}

	@Test
	void beforeTreeWhenAlreadyAbortedShouldThrowCancellationWithoutAskingAnyHook() {
		SessionHooks hooks = hooks(hook("first", (preparation) -> HookAnswer.NONE));
		CompletableFuture<Void> abort = CompletableFuture.completedFuture(null);
		assertThatExceptionOfType(CancellationException.class).isThrownBy(() -> hooks.beforeTree(TREE, abort));
		assertThat(this.calls).isEmpty();
	}

	@Test
	void beforeTreeWhenAbortedBetweenHooksShouldNotAskTheNextHook() {
		CompletableFuture<Void> abort = new CompletableFuture<>();
		SessionHooks hooks = hooks(hook("aborts", (preparation) -> {
			abort.complete(null);
			return HookAnswer.NONE;
		}), hook("next", (preparation) -> HookAnswer.NONE));
		assertThatExceptionOfType(CancellationException.class).isThrownBy(() -> hooks.beforeTree(TREE, abort));
		assertThat(this.calls).doesNotContain("next");
	}

	@Test
	void beforeTreeShouldSkipHooksThatDoNotAnswerTheEvent() {
		TestHook branchOnly = new TestHook("branch only", Duration.ofSeconds(30), Set.of(EventType.SESSION_BEFORE_BRANCH),
				(preparation) -> HookAnswer.CANCEL);
		SessionHooks hooks = hooks(branchOnly, hook("summary", (preparation) -> HookAnswer.summary("s", null)));
		HookAnswer answer = hooks.beforeTree(TREE, new CompletableFuture<>());
		assertThat(answer.cancel()).isFalse();
		assertThat(answer.summary().summary()).isEqualTo("s");
		assertThat(this.calls).containsExactly("summary");
	}

	@Test
	void beforeBranchShouldRunHooksInOrderAndStopAtTheFirstCancel() {
		List<BranchPreparation> seen = Collections.synchronizedList(new ArrayList<>());
		TestHook treeOnly = new TestHook("tree only", Duration.ofSeconds(30), Set.of(EventType.SESSION_BEFORE_TREE),
				(preparation) -> HookAnswer.CANCEL);
		TestHook throwing = new TestHook("throws", Duration.ofSeconds(30), Set.of(EventType.values()), null) {

			@Override
			public HookAnswer beforeBranch(BranchPreparation preparation) {
				super.beforeBranch(preparation);
				throw new IllegalStateException("boom");
			}

		};
		TestHook recording = new TestHook("records", Duration.ofSeconds(30), Set.of(EventType.values()), null) {

			@Override
			public HookAnswer beforeBranch(BranchPreparation preparation) {
				super.beforeBranch(preparation);
				seen.add(preparation);
				return HookAnswer.NONE;
			}

		};
		TestHook cancelling = new TestHook("cancels", Duration.ofSeconds(30), Set.of(EventType.values()), null) {

			@Override
			public HookAnswer beforeBranch(BranchPreparation preparation) {
				super.beforeBranch(preparation);
				return HookAnswer.CANCEL;
			}

		};
		TestHook later = new TestHook("later", Duration.ofSeconds(30), Set.of(EventType.values()), null);
		SessionHooks hooks = hooks(treeOnly, throwing, recording, cancelling, later);
		assertThat(hooks.beforeBranch(BRANCH).cancel()).isTrue();
		assertThat(this.calls).containsExactly("throws", "records", "cancels");
		assertThat(seen).containsExactly(BRANCH);
	}

	@Test
	void beforeBranchWhenAHookOutlivesItsTimeoutShouldCountItAsNoAnswerAndInterruptIt() {
		CountDownLatch interrupted = new CountDownLatch(1);
		TestHook slow = new TestHook("slow", Duration.ofMillis(200), Set.of(EventType.values()), null) {

			@Override
			public HookAnswer beforeBranch(BranchPreparation preparation) {
				super.beforeBranch(preparation);
				sleepUnlessInterrupted(interrupted);
				return HookAnswer.CANCEL;
			}

		};
		long start = System.nanoTime();
		HookAnswer answer = hooks(slow).beforeBranch(BRANCH);
		assertThat(answer).isEqualTo(HookAnswer.NONE);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
		assertThat(await(interrupted)).isTrue();
	}

	@Test
	void beforeBranchWhenNoHookCancelsShouldAnswerNone() {
		SessionHooks hooks = hooks(new TestHook("quiet", Duration.ofSeconds(30), Set.of(EventType.values()), null));
		assertThat(hooks.beforeBranch(BRANCH).cancel()).isFalse();
		assertThat(this.calls).containsExactly("quiet");
	}

	private SessionHooks hooks(SessionHook... hooks) {
		return new SessionHooks(List.of(hooks), new SimpleAsyncTaskExecutor("hook-"), this.meters);
	}

	private TestHook hook(String name, TreeAnswer answer) {
		return new TestHook(name, Duration.ofSeconds(30), Set.of(EventType.values()), answer);
	}

	/** Sleeps far past any timeout of these tests; counts the latch down when interrupted. */
	private void sleepUnlessInterrupted(CountDownLatch interrupted) {
		try {
			this.never.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			interrupted.countDown();
			Thread.currentThread().interrupt();
		}
	}

	private static boolean await(CountDownLatch latch) {
		try {
			return latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@FunctionalInterface
	private interface TreeAnswer {

		@Nullable HookAnswer answer(TreePreparation preparation) throws Exception;

	}

	/** A hook that records its calls by name. */
	private class TestHook implements SessionHook {

		private final String name;

		private final Duration timeout;

		private final Set<EventType> events;

		private final @Nullable TreeAnswer tree;

		TestHook(String name, Duration timeout, Set<EventType> events, @Nullable TreeAnswer tree) {
			this.name = name;
			this.timeout = timeout;
			this.events = events;
			this.tree = tree;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public Duration timeout() {
			return this.timeout;
		}

		@Override
		public boolean answers(EventType type) {
			return this.events.contains(type);
		}

		@Override
		public @Nullable HookAnswer beforeTree(TreePreparation preparation) throws Exception {
			SessionHooksTests.this.calls.add(this.name);
			return (this.tree != null) ? this.tree.answer(preparation) : HookAnswer.NONE;
		}

		@Override
		public HookAnswer beforeBranch(BranchPreparation preparation) {
			SessionHooksTests.this.calls.add(this.name);
			return HookAnswer.NONE;
		}

	}

}

package dev.arbor.events;

import java.time.Duration;

/**
 * An extension that answers the {@code session_before_*} events (docs/API.md#hooks-and-webhooks;
 * docs/SESSION-FORMAT.md#navigation and docs/SESSION-FORMAT.md#branching-and-forking). Implement it as a Spring bean to
 * hook in-process; webhooks configured under {@code arbor.hooks.webhooks} are hooks too. Hooks run one after the other,
 * beans first in their {@code @Order}, then webhooks in the order configured. A hook that throws or outlives its
 * {@link #timeout()} counts as no answer and is logged by its {@link #name()}.
 * <p>
 * A hook runs while its navigation holds the session: writes to that session wait until it answers, so a hook
 * must not write to the session it is asked about.
 */
public interface SessionHook {

	/** The name logs give it. */
	default String name() {
		return getClass().getName();
	}

	/** How long its answer is waited for. */
	default Duration timeout() {
		return Duration.ofSeconds(30);
	}

	/** Whether it is asked about events of this type at all. */
	default boolean answers(EventType type) {
		return true;
	}

	/**
	 * Before a navigation inside a session: cancel it, supply its summary, or {@link HookAnswer#NONE}.
	 * The thread is interrupted when the navigation is aborted or the hook times out.
	 */
	default HookAnswer beforeTree(TreePreparation preparation) throws Exception {
		return HookAnswer.NONE;
	}

	/** Before {@code /branch} makes a new session: cancel it, or {@link HookAnswer#NONE}. */
	default HookAnswer beforeBranch(BranchPreparation preparation) throws Exception {
		return HookAnswer.NONE;
	}

}

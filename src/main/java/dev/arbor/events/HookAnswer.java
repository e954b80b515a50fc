package dev.arbor.events;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a hook answers to a {@code session_before_*} event.
 *
 * @param cancel whether the operation is cancelled (nothing changes)
 * @param summary the summary of the abandoned branch, used instead of the summary model when the navigation asked
 * for one ({@code session_before_tree} only)
 */
public record HookAnswer(boolean cancel, @Nullable Summary summary) {

	/** No answer: the operation goes on as if the hook were not there. */
	public static final HookAnswer NONE = new HookAnswer(false, null);

	public static final HookAnswer CANCEL = new HookAnswer(true, null);

	public static HookAnswer summary(String summary, @Nullable JsonNode details) {
		return new HookAnswer(false, new Summary(summary, details));
	}

	/** Whether it says anything: only then does it replace what an earlier hook answered. */
	public boolean isAnswer() {
		return this.cancel || this.summary != null;
	}

	/**
	 * A summary supplied by a hook.
	 *
	 * @param summary the text of the {@code branch_summary} entry
	 * @param details its {@code details}, or {@code null}
	 */
	public record Summary(String summary, @Nullable JsonNode details) {
	}

}

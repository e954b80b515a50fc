package dev.arbor.session;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resolved labels: {@code label} entries replayed in file order, last write wins, an absent or
 * empty label clears (docs/SESSION-FORMAT.md#labels-compactions-branch-summaries-models-and-thinking-levels). Iteration
 * order is the order labels were first set (a cleared label starts again), which is the order a branched session
 * re-creates them in (docs/SESSION-FORMAT.md#branching-and-forking). Not thread-safe.
 */
final class Labels {

	/**
	 * A resolved label.
	 *
	 * @param label the text
	 * @param timestamp the stored timestamp of the label entry that set it
	 */
	record Label(String label, @Nullable String timestamp) {
	}

	private final Map<String, Label> byTarget = new LinkedHashMap<>();

	/** Applies one {@code label} entry; labels on entries that don't exist are kept in the file only. */
	void apply(EntryLine entry, Predicate<String> targetExists) {
		ObjectNode node = entry.toNode();
		String targetId = Json.text(node, "targetId");
		if (targetId == null || !targetExists.test(targetId)) {
			return;
		}
		String label = Json.text(node, "label");
		if (label != null && !label.isEmpty()) {
			// Like upstream's Map: a label set again keeps its place in the order.
			this.byTarget.put(targetId, new Label(label, Json.text(node, "timestamp")));
		}
		else {
			this.byTarget.remove(targetId);
		}
	}

	@Nullable String get(String targetId) {
		Label label = this.byTarget.get(targetId);
		return (label != null) ? label.label() : null;
	}

	Map<String, Label> all() {
		return Collections.unmodifiableMap(this.byTarget);
	}

}

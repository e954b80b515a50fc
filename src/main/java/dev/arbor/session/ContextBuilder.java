package dev.arbor.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code buildSessionContext} (docs/SESSION-FORMAT.md#the-model-context): one walk of the path, linear in its length.
 * Only state entries and the latest compaction are parsed; messages are referenced as stored.
 */
final class ContextBuilder {

	private static final String DEFAULT_ROLE = "default";

	private String thinkingLevel = "off";

	private final Map<String, String> models = new LinkedHashMap<>();

	private boolean explicitDefaultModel;

	private String mode = "none";

	private @Nullable JsonNode modeData;

	private final Set<String> injectedRules = new LinkedHashSet<>();

	private ContextBuilder() {
	}

	static SessionContext build(SessionTree tree, int leaf) {
		if (leaf < 0) {
			return new SessionContext(null, "off", Map.of(), "none", null, List.of(), List.of());
		}
		int[] path = tree.pathPositions(leaf);
		ContextBuilder state = new ContextBuilder();
		int compaction = -1;
		int lastThinkingLevelChange = -1;
		int lastModeChange = -1;
		for (int i = 0; i < path.length; i++) {
			EntryLine entry = tree.at(path[i]);
			if (entry.isType(EntryTypes.COMPACTION)) {
				compaction = i;
			}
			else if (entry.isType(EntryTypes.THINKING_LEVEL_CHANGE)) {
				lastThinkingLevelChange = path[i];
			}
			else if (entry.isType(EntryTypes.MODE_CHANGE)) {
				lastModeChange = path[i];
			}
			else {
				state.track(entry);
			}
		}
		// Each thinking level or mode change replaces the previous value whole, so only the latest one is
		// parsed: a long session has tens of thousands of them
		// (docs/BENCHMARKS.md#earlier-change-buildsessioncontext-parses-only-the-latest-thinking-level-and-mode-change).
		if (lastThinkingLevelChange >= 0) {
			state.applyThinkingLevelChange(tree.at(lastThinkingLevelChange));
		}
		if (lastModeChange >= 0) {
			state.applyModeChange(tree.at(lastModeChange));
		}
		if (!state.explicitDefaultModel) {
			state.takeDefaultModelFromLastAssistant(tree, path);
		}
		return new SessionContext(tree.at(leaf).id(), state.thinkingLevel, state.models, state.mode, state.modeData,
				List.copyOf(state.injectedRules), messages(tree, path, compaction));
	}

	private void track(EntryLine entry) {
		switch (entry.type()) {
			case EntryTypes.MODEL_CHANGE -> trackModelChange(entry.toNode());
			case EntryTypes.TTSR_INJECTION -> {
				JsonNode rules = entry.toNode().get("injectedRules");
				if (rules != null && rules.isArray()) {
					rules.forEach(rule -> {
						if (rule.isString()) {
							this.injectedRules.add(rule.asString());
						}
					});
				}
			}
			default -> {
			}
		}
	}

	private void applyThinkingLevelChange(EntryLine entry) {
		String level = Json.text(entry.toNode(), "thinkingLevel");
		this.thinkingLevel = (level != null) ? level : "off";
	}

	private void applyModeChange(EntryLine entry) {
		ObjectNode node = entry.toNode();
		String newMode = Json.text(node, "mode");
		this.mode = (newMode != null) ? newMode : "none";
		this.modeData = Json.value(node, "data");
	}

	private void trackModelChange(ObjectNode node) {
		String role = Json.text(node, "role");
		String model = Json.text(node, "model");
		if (model == null && Json.text(node, "provider") != null && Json.text(node, "modelId") != null) {
			model = Json.text(node, "provider") + "/" + Json.text(node, "modelId"); // legacy form
		}
		if (model == null) {
			return;
		}
		String key = (role != null) ? role : DEFAULT_ROLE;
		this.models.put(key, model);
		this.explicitDefaultModel |= DEFAULT_ROLE.equals(key);
	}

	/**
	 * Assistant messages set {@code models.default} only until an explicit default model change, so
	 * without one the answer is the last assistant message that names its model: found walking back,
	 * usually within a few entries, rather than by parsing every message.
	 */
	private void takeDefaultModelFromLastAssistant(SessionTree tree, int[] path) {
		for (int i = path.length - 1; i >= 0; i--) {
			EntryLine entry = tree.at(path[i]);
			if (entry.isType(EntryTypes.MESSAGE)) {
				MessageHead head = entry.messageHead();
				if (head.hasRole("assistant") && head.provider() != null && head.model() != null) {
					this.models.put(DEFAULT_ROLE, head.provider() + "/" + head.model());
					return;
				}
			}
		}
	}

	private static List<ContextMessage> messages(SessionTree tree, int[] path, int compaction) {
		List<ContextMessage> messages = new ArrayList<>();
		if (compaction < 0) {
			for (int position : path) {
				emit(tree.at(position), messages);
			}
			return messages;
		}
		EntryLine compactionEntry = tree.at(path[compaction]);
		ObjectNode node = compactionEntry.toNode();
		messages.add(EntryMessages.compactionSummary(compactionEntry, node));
		String firstKept = Json.text(node, "firstKeptEntryId");
		boolean kept = false;
		for (int i = 0; i < compaction; i++) {
			EntryLine entry = tree.at(path[i]);
			kept |= firstKept != null && entry.hasId(firstKept);
			if (kept) {
				emit(entry, messages);
			}
		}
		for (int i = compaction + 1; i < path.length; i++) {
			emit(tree.at(path[i]), messages);
		}
		return messages;
	}

	private static void emit(EntryLine entry, List<ContextMessage> messages) {
		ContextMessage message = EntryMessages.pathMessage(entry);
		if (message != null) {
			messages.add(message);
		}
	}

}

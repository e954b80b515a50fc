package dev.arbor.session;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The result of {@code buildSessionContext} (docs/SESSION-FORMAT.md#the-model-context).
 *
 * @param leafId the leaf the context was built at
 * @param thinkingLevel the latest thinking level, {@code "off"} by default
 * @param models role → {@code "provider/modelId"}
 * @param mode the latest mode, {@code "none"} by default
 * @param modeData the latest mode's data
 * @param injectedTtsrRules every injected rule, in first-seen order
 * @param messages the messages, agent view (or model view after {@link #forModel()})
 */
public record SessionContext(@Nullable String leafId, String thinkingLevel, Map<String, String> models, String mode,
		@Nullable JsonNode modeData, List<String> injectedTtsrRules, List<ContextMessage> messages) {

	/** The same context as the model receives it (docs/SESSION-FORMAT.md#the-llm-view). */
	public SessionContext forModel() {
		return new SessionContext(this.leafId, this.thinkingLevel, this.models, this.mode, this.modeData,
				this.injectedTtsrRules, ModelView.convert(this.messages));
	}

}

package dev.arbor.web;

import java.util.List;
import java.util.Map;

import dev.arbor.session.ContextMessage;
import dev.arbor.session.SessionContext;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * {@code buildSessionContext} (docs/SESSION-FORMAT.md#the-model-context).
 *
 * @param leafId where it was built
 * @param thinkingLevel the latest thinking level
 * @param models role → {@code provider/modelId}
 * @param mode the latest mode
 * @param modeData the latest mode's data
 * @param injectedTtsrRules every injected rule, in first-seen order
 * @param messages the messages, agent or model view
 */
@Schema(description = "What the model sees at a leaf: state tracked along the path, then the messages.")
record ContextResponse(@Schema(example = "c3d4e5f6") @Nullable String leafId,
		@Schema(description = "The latest thinking_level_change; \"off\" by default.", example = "high") String thinkingLevel,
		@Schema(description = "Role → \"provider/modelId\".", example = "{\"default\":\"anthropic/claude-sonnet-4-5\"}") Map<String, String> models,
		@Schema(description = "The latest mode_change; \"none\" by default.", example = "none") String mode,
		@Schema(description = "The latest mode_change's data.", example = "{\"file\":\"plan.md\"}") @Nullable JsonNode modeData,
		@Schema(example = "[\"tests-first\"]") List<String> injectedTtsrRules,
		@Schema(description = "Agent messages (format=agent) or what a model receives (format=llm).") List<ContextMessage> messages) {

	static ContextResponse of(SessionContext context) {
		return new ContextResponse(context.leafId(), context.thinkingLevel(), context.models(), context.mode(),
				context.modeData(), context.injectedTtsrRules(), context.messages());
	}

}

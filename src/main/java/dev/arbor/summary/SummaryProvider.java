package dev.arbor.summary;

import java.util.Locale;

/**
 * The chat models Arbor can summarize with ({@code arbor.summary.provider}). Each is Spring AI's model of that
 * name ({@code spring.ai.model.chat}), configured by Spring AI's own properties.
 */
public enum SummaryProvider {

	/** No summary model: summarizing navigations answer 422. */
	NONE,

	/** OpenAI's chat completions, or any server speaking them (vLLM, llama.cpp, LM Studio, Ollama's {@code /v1}). */
	OPENAI,

	/** Anthropic's messages API. */
	ANTHROPIC,

	/** Ollama's own API. */
	OLLAMA;

	/** The name in settings, metrics and error messages: {@code openai}. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}

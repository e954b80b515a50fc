package dev.arbor.config;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring AI's auto-configurations stay only for the summary provider that is selected. */
class SummaryProviderImportsTests {

	private static final String OPENAI = "org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration";

	private static final String ANTHROPIC = "org.springframework.ai.model.anthropic.autoconfigure.AnthropicChatAutoConfiguration";

	private static final String OLLAMA_API = "org.springframework.ai.model.ollama.autoconfigure.OllamaApiAutoConfiguration";

	private static final String CHAT_CLIENT = "org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration";

	private static final String RETRY = "org.springframework.ai.retry.autoconfigure.SpringAiRetryAutoConfiguration";

	private static final String WEB_MVC = "org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration";

	private static final String[] CANDIDATES = { OPENAI, ANTHROPIC, OLLAMA_API, CHAT_CLIENT, RETRY, WEB_MVC, null };

	@Test
	void matchWhenProviderIsNotSetShouldLeaveOutAllOfSpringAi() {
		assertThat(match(new MockEnvironment())).containsExactly(false, false, false, false, false, true, true);
	}

	@Test
	void matchWhenProviderIsNoneShouldLeaveOutAllOfSpringAi() {
		assertThat(match(provider("none"))).containsExactly(false, false, false, false, false, true, true);
	}

	@Test
	void matchWhenOpenAiIsSelectedShouldKeepItAndWhatItBuildsOnButNotTheOtherProviders() {
		assertThat(match(provider("openai"))).containsExactly(true, false, false, true, true, true, true);
	}

	@Test
	void matchWhenOllamaIsSelectedInAnotherCaseShouldKeepOllama() {
		assertThat(match(provider("OLLAMA"))).containsExactly(false, false, true, true, true, true, true);
	}

	@Test
	void matchWhenProviderIsUnknownShouldKeepEverythingForValidationToRefuse() {
		assertThat(match(provider("gemini"))).containsExactly(true, true, true, true, true, true, true);
	}

	private static MockEnvironment provider(String provider) {
		return new MockEnvironment().withProperty("arbor.summary.provider", provider);
	}

	private static boolean[] match(MockEnvironment environment) {
		SummaryProviderImports filter = new SummaryProviderImports();
		filter.setEnvironment(environment);
		return filter.match(CANDIDATES.clone(), null);
	}

}

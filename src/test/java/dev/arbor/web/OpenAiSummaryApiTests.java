package dev.arbor.web;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Branch summaries by Spring AI's OpenAI chat model, against a local server speaking OpenAI's chat completions. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class OpenAiSummaryApiTests extends SummaryProviderContract {

	@TempDir
	static Path storage;

	static final ModelServer model = new ModelServer(ModelServer.Protocol.OPENAI);

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		summarySettings(registry, "openai", storage);
		registry.add("spring.ai.openai.base-url", model::baseUrl);
		registry.add("spring.ai.openai.api-key", () -> "sk-test");
		registry.add("spring.ai.openai.chat.model", () -> "gpt-summary-test");
		// A 500 is answered at once, not after the client's retries.
		registry.add("spring.ai.openai.max-retries", () -> "0");
	}

	@AfterAll
	static void stop() throws Exception {
		model.close();
	}

	OpenAiSummaryApiTests() {
		super("openai", model, storage);
	}

	@Override
	void assertProviderRequest(ModelServer.Request request) {
		assertThat(request.path()).isEqualTo("/v1/chat/completions");
		assertThat(request.headers().get("authorization")).isEqualTo("Bearer sk-test");
		assertThat(request.body().get("model").asString()).isEqualTo("gpt-summary-test");
		assertThat(request.body().get("stream").asBoolean()).isTrue();
		JsonNode maxTokens = request.body().has("max_completion_tokens") ? request.body().get("max_completion_tokens")
				: request.body().get("max_tokens");
		assertThat(maxTokens.asInt()).isEqualTo(777);
		JsonNode messages = request.body().get("messages");
		assertThat(messages).hasSize(2);
		assertThat(messages.get(0).get("role").asString()).isEqualTo("system");
		assertThat(messages.get(1).get("role").asString()).isEqualTo("user");
	}

	@Override
	String systemPrompt(ModelServer.Request request) {
		return text(request.body().get("messages").get(0));
	}

	@Override
	String userPrompt(ModelServer.Request request) {
		return text(request.body().get("messages").get(1));
	}

}

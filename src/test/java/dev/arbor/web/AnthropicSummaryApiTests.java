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

/** Branch summaries by Spring AI's Anthropic chat model, against a local server speaking Anthropic's messages API. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class AnthropicSummaryApiTests extends SummaryProviderContract {

	@TempDir
	static Path storage;

	static final ModelServer model = new ModelServer(ModelServer.Protocol.ANTHROPIC);

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		summarySettings(registry, "anthropic", storage);
		registry.add("spring.ai.anthropic.base-url", model::baseUrl);
		registry.add("spring.ai.anthropic.api-key", () -> "sk-ant-test");
		registry.add("spring.ai.anthropic.chat.model", () -> "claude-summary-test");
		registry.add("spring.ai.anthropic.max-retries", () -> "0");
	}

	@AfterAll
	static void stop() throws Exception {
		model.close();
	}

	AnthropicSummaryApiTests() {
		super("anthropic", model, storage);
	}

	@Override
	void assertProviderRequest(ModelServer.Request request) {
		assertThat(request.path()).isEqualTo("/v1/messages");
		assertThat(request.headers().get("x-api-key")).isEqualTo("sk-ant-test");
		assertThat(request.headers()).containsKey("anthropic-version");
		assertThat(request.body().get("model").asString()).isEqualTo("claude-summary-test");
		assertThat(request.body().get("stream").asBoolean()).isTrue();
		assertThat(request.body().get("max_tokens").asInt()).isEqualTo(777);
		JsonNode messages = request.body().get("messages");
		assertThat(messages).hasSize(1);
		assertThat(messages.get(0).get("role").asString()).isEqualTo("user");
	}

	@Override
	String systemPrompt(ModelServer.Request request) {
		JsonNode system = request.body().get("system");
		if (system.isString()) {
			return system.asString();
		}
		StringBuilder text = new StringBuilder();
		system.forEach(block -> text.append(block.path("text").asString("")));
		return text.toString();
	}

	@Override
	String userPrompt(ModelServer.Request request) {
		return text(request.body().get("messages").get(0));
	}

}

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

/**
 * Branch summaries by Spring AI's Ollama chat model, against a local server speaking Ollama's own chat API
 * ({@code /api/chat}, JSON lines when streamed). {@code OllamaContainerSummaryTests} runs the same against a real
 * Ollama where Docker is available.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class OllamaSummaryApiTests extends SummaryProviderContract {

	@TempDir
	static Path storage;

	static final ModelServer model = new ModelServer(ModelServer.Protocol.OLLAMA);

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		summarySettings(registry, "ollama", storage);
		registry.add("spring.ai.ollama.base-url", model::baseUrl);
		registry.add("spring.ai.ollama.chat.model", () -> "qwen-summary-test");
	}

	@AfterAll
	static void stop() throws Exception {
		model.close();
	}

	OllamaSummaryApiTests() {
		super("ollama", model, storage);
	}

	@Override
	void assertProviderRequest(ModelServer.Request request) {
		assertThat(request.method()).isEqualTo("POST");
		assertThat(request.path()).isEqualTo("/api/chat");
		// HTTP/1.1 as Ollama speaks it: no request to upgrade to HTTP/2 over plain HTTP.
		assertThat(request.headers()).doesNotContainKeys("upgrade", "http2-settings");
		assertThat(request.body().get("model").asString()).isEqualTo("qwen-summary-test");
		assertThat(request.body().get("stream").asBoolean()).isTrue();
		// Ollama's name for the most output tokens; the portable maxTokens becomes it.
		assertThat(request.body().get("options").get("num_predict").asInt()).isEqualTo(777);
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

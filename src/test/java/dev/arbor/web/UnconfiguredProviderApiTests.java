package dev.arbor.web;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A provider selected but not configured (OpenAI without a key) leaves Arbor running: everything works but
 * summaries, which answer the 422 of no model.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class UnconfiguredProviderApiTests {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.summary.provider", () -> "openai");
	}

	@Autowired
	RestTestClient client;

	@Test
	void summarizingShouldBeThe422OfNoModelAndNavigatingShouldWork() {
		// OpenAI's client takes its key from the environment too; with one there, the provider is configured.
		assumeThat(System.getenv("OPENAI_API_KEY")).isNull();
		AbandonedBranch branch = AbandonedBranch.create(this.client);
		Map<String, String> before = ApiSessions.files(storage);
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", branch.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", branch.a1(), "summarize", true))
			.exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "no-summary-model");
		assertThat(problem.get("detail").asString()).isEqualTo("No model available for summarization");
		assertThat(ApiSessions.files(storage)).isEqualTo(before);
		JsonNode outcome = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/navigate?context=false", branch.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", branch.a1()))
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(branch.a1());
		this.client.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
	}

}

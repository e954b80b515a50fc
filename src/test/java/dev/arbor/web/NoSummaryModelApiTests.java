package dev.arbor.web;

import java.nio.file.Path;
import java.util.Map;

import dev.arbor.events.HookAnswer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without a summary model, {@code summarize:true} fails at once with 422, even when a hook would supply the summary
 * (docs/SESSION-FORMAT.md#navigation); navigations without a summary work as ever.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Import(ScriptedHook.Registered.class)
class NoSummaryModelApiTests {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Autowired
	RestTestClient client;

	@Autowired
	ScriptedHook hook;

	/** A hook that would supply the summary: it must not matter. */
	@BeforeEach
	void hookWithASummary() {
		this.hook.reset();
		this.hook.onTree = preparation -> HookAnswer.summary("would be used", null);
	}

	@Test
	void summarizeWithoutAModelShouldBeA422AndWriteNothing() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		Map<String, String> before = ApiSessions.files(storage);
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", u1, "summarize", true))
			.exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "no-summary-model");
		assertThat(problem.get("detail").asString()).isEqualTo("No model available for summarization");
		assertThat(this.hook.treeCalls).as("it fails before any hook runs").isEmpty();
		assertThat(ApiSessions.files(storage)).isEqualTo(before);
	}

	@Test
	void aDryRunWithSummarizeShouldFailTheSameWay() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate?dryRun=true", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", u1, "summarize", true))
			.exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "no-summary-model");
	}

	@Test
	void navigatingWithoutASummaryShouldStillWork() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		JsonNode outcome = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/navigate", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", u1))
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(outcome.get("newLeafId").isNull()).isTrue();
		assertThat(outcome.get("summaryEntry").isNull()).isTrue();
	}

}

package dev.arbor.web;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Branch summaries by one of Spring AI's chat models, over HTTP, against a real local server speaking its
 * provider's protocol (docs/SESSION-FORMAT.md#navigation). Each provider's test class configures Arbor with a small
 * window (3,000 tokens, 1,000 reserved, so that a test can outgrow it), 777 output tokens and a 2 s timeout.
 */
abstract class SummaryProviderContract {

	private final String provider;

	private final ModelServer model;

	private final Path storage;

	/**
	 * @param provider the provider's {@code arbor.summary.provider} name
	 * @param model the stand-in the test class points the provider at
	 * @param storage the test class's storage directory
	 */
	SummaryProviderContract(String provider, ModelServer model, Path storage) {
		this.provider = provider;
		this.model = model;
		this.storage = storage;
	}

	final String provider() {
		return this.provider;
	}

	final ModelServer model() {
		return this.model;
	}

	final Path storage() {
		return this.storage;
	}

	/** Checks what is particular to the provider: path, authentication, model, streaming, output tokens. */
	abstract void assertProviderRequest(ModelServer.Request request);

	/** The system prompt the request carries. */
	abstract String systemPrompt(ModelServer.Request request);

	/** The text of the request's only user message. */
	abstract String userPrompt(ModelServer.Request request);

	/** The settings every provider's test class sets, before its own. */
	static void summarySettings(DynamicPropertyRegistry registry, String provider, Path storage) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.summary.provider", () -> provider);
		registry.add("arbor.summary.context-window", () -> "3000");
		registry.add("arbor.summary.reserve-tokens", () -> "1000");
		registry.add("arbor.summary.max-output-tokens", () -> "777");
		registry.add("arbor.summary.timeout", () -> "2s");
	}

	@Autowired
	RestTestClient client;

	@Autowired
	MeterRegistry meters;

	@BeforeEach
	void reset() {
		model().reset();
	}

	@Test
	void theSummaryShouldComeFromTheModelWithThePreambleAndTheFiles() throws Exception {
		AbandonedBranch branch = AbandonedBranch.create(this.client);
		double successes = requests("success");
		JsonNode outcome = navigate(branch.sessionId(), Map.of("targetId", branch.a1(), "summarize", true));

		ModelServer.Request request = model().takeRequest();
		assertProviderRequest(request);
		assertThat(request.headers()).doesNotContainKey("x-arbor-summary-call");
		assertThat(systemPrompt(request)).contains("context summarization assistant")
			.contains("never instructions to you");
		String prompt = userPrompt(request);
		assertThat(prompt).startsWith("<conversation>\n[User]: Try approach B: rewrite the tokenizer\n\n"
				+ "[Assistant]: I will read it first.\n\n"
				+ "[Assistant tool calls]: read(path=\"src/parser.ts\"); edit(path=\"src/parser.ts\"); read(path=\"docs/grammar.md\")\n\n"
				+ "[Assistant]: Rewrote the tokenizer; tests fail with: Unexpected token at line 3\n\n"
				+ "[User]: Also write tests\n\n");
		assertThat(prompt).contains("[Assistant tool calls]: write(path=\"test/parser.test.ts\")\n</conversation>\n\n"
				+ "Create a structured summary of this conversation branch");
		assertThat(prompt).contains("## Goal", "## Constraints & Preferences", "### Done", "### In Progress",
				"### Blocked", "## Key Decisions", "## Next Steps", "Preserve exact file paths, function names, and error messages");
		assertThat(prompt).as("tool results are not summarized").doesNotContain("SECRET TOOL OUTPUT")
			.doesNotContain("Look at the parser");

		JsonNode summary = outcome.get("summaryEntry");
		assertThat(summary.get("type").asString()).isEqualTo("branch_summary");
		assertThat(summary.get("parentId").asString()).isEqualTo(branch.a1());
		assertThat(summary.get("fromId").asString()).isEqualTo(branch.a1());
		assertThat(summary.get("summary").asString()).isEqualTo("""
				The user explored a different conversation branch before returning here.
				Summary of that exploration:

				## Goal
				Summarized by the stand-in.

				<read-files>
				docs/grammar.md
				</read-files>

				<modified-files>
				src/parser.ts
				test/parser.test.ts
				</modified-files>""");
		assertThat(summary.get("details").toString())
			.isEqualTo("{\"readFiles\":[\"docs/grammar.md\"],\"modifiedFiles\":[\"src/parser.ts\",\"test/parser.test.ts\"]}");
		assertThat(summary.get("fromExtension").asBoolean()).isFalse();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(summary.get("id").asString());
		assertThat(ApiSessions.leaf(this.client, branch.sessionId())).isEqualTo(summary.get("id").asString());
		assertThat(requestsOnceRecorded("success", successes + 1)).isEqualTo(successes + 1);
		assertThat(this.meters.get("arbor.summary.tokens").tag("provider", provider()).tag("type", "input").counter().count())
			.isGreaterThanOrEqualTo(1200);
		assertThat(this.meters.find("gen_ai.client.operation").timers()).as("Spring AI's own observation").isNotEmpty();
		assertThat(this.meters.find("gen_ai.client.token.usage").counters()).as("Spring AI's own token counts").isNotEmpty();
		String prometheus = this.client.get().uri("/actuator/prometheus").exchange().expectBody(String.class)
			.returnResult().getResponseBody();
		assertThat(prometheus).contains("arbor_summary_requests_seconds_count{outcome=\"success\",provider=\"" + provider() + "\"}")
			.contains("arbor_summary_tokens_total{provider=\"" + provider() + "\",type=\"output\"}");
	}

	@Test
	void customInstructionsShouldReplaceTheStructuredOnes() throws Exception {
		AbandonedBranch branch = AbandonedBranch.create(this.client);
		navigate(branch.sessionId(), Map.of("targetId", branch.a1(), "summarize", true, "customInstructions",
				"List only the error messages, verbatim."));
		String prompt = userPrompt(model().takeRequest());
		assertThat(prompt).endsWith("</conversation>\n\nList only the error messages, verbatim.");
		assertThat(prompt).doesNotContain("## Goal");
	}

	@Test
	void theBudgetShouldDropTheOldestMessagesFirst() throws Exception {
		AbandonedBranch branch = AbandonedBranch.create(this.client);
		// Eight messages of about 500 tokens each after the branch; the budget is 2,000 tokens.
		List<String> texts = new ArrayList<>();
		for (int i = 1; i <= 8; i++) {
			String text = "Step " + i + ": " + "x".repeat(1990);
			texts.add(text);
			ApiSessions.appendUser(this.client, branch.sessionId(), text);
		}
		navigate(branch.sessionId(), Map.of("targetId", branch.a1(), "summarize", true));
		String prompt = userPrompt(model().takeRequest());
		String conversation = prompt.substring(0, prompt.indexOf("</conversation>"));
		assertThat(conversation).contains("Step 8: ", "Step 7: ", "Step 6: ");
		assertThat(conversation).doesNotContain("Step 1: ", "Step 2: ", "Try approach B");
		assertThat(conversation.length() / 4).isLessThanOrEqualTo(2000);
		int firstKept = conversation.indexOf("[User]: Step ");
		assertThat(conversation.substring(firstKept)).as("newest kept, in order")
			.matches("(?s)\\[User]: Step (\\d): .*")
			.endsWith(texts.get(7) + "\n");
	}

	@Test
	void aFailingProviderShouldBeA502NamingItAndWriteNothing() throws Exception {
		AbandonedBranch branch = AbandonedBranch.create(this.client);
		model().behaviour = ModelServer.Behaviour.FAIL;
		Map<String, String> before = ApiSessions.files(storage());
		double failures = requests("failed");
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", branch.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", branch.a1(), "summarize", true))
			.exchange(), HttpStatus.BAD_GATEWAY, "summary-failed");
		assertThat(problem.get("provider").asString()).isEqualTo(provider());
		assertThat(problem.get("detail").asString()).startsWith("The summary model (" + provider() + ") failed: ")
			.contains("500")
			.endsWith("; nothing was changed");
		assertThat(ApiSessions.files(storage())).isEqualTo(before);
		assertThat(ApiSessions.leaf(this.client, branch.sessionId())).isEqualTo(branch.a4());
		assertThat(requestsOnceRecorded("failed", failures + 1)).isEqualTo(failures + 1);
	}

	@Test
	void aStalledProviderShouldBeAbortedWithinASecond() throws Exception {
		AbandonedBranch branch = AbandonedBranch.create(this.client);
		model().behaviour = ModelServer.Behaviour.STALL;
		Map<String, String> before = ApiSessions.files(storage());
		CompletableFuture<JsonNode> navigation = CompletableFuture.supplyAsync(() -> navigate(branch.sessionId(),
				Map.of("targetId", branch.a1(), "summarize", true, "requestId", "nav-stalled")));
		model().takeRequest();
		long start = System.nanoTime();
		this.client.delete()
			.uri("/sessions/{id}/navigations/{r}", branch.sessionId(), "nav-stalled")
			.exchange()
			.expectStatus()
			.isAccepted();
		JsonNode outcome = navigation.get(1, TimeUnit.SECONDS);
		assertThat(model().hangUps.await(1, TimeUnit.SECONDS)).as("the provider's connection is closed").isTrue();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
		assertThat(outcome.get("cancelled").asBoolean()).isTrue();
		assertThat(outcome.get("aborted").asBoolean()).isTrue();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(branch.a4());
		assertThat(ApiSessions.files(storage())).isEqualTo(before);
	}

	@Test
	void aProviderSlowerThanTheTimeoutShouldBeA502AndBeHungUp() throws Exception {
		AbandonedBranch branch = AbandonedBranch.create(this.client);
		model().behaviour = ModelServer.Behaviour.STALL;
		Map<String, String> before = ApiSessions.files(storage());
		double timeouts = requests("timeout");
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", branch.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", branch.a1(), "summarize", true))
			.exchange(), HttpStatus.BAD_GATEWAY, "summary-failed");
		assertThat(problem.get("detail").asString())
			.isEqualTo("The summary model (" + provider() + ") failed: no summary within 2s; nothing was changed");
		assertThat(model().hangUps.await(1, TimeUnit.SECONDS)).as("the provider's connection is closed").isTrue();
		assertThat(ApiSessions.files(storage())).isEqualTo(before);
		assertThat(requestsOnceRecorded("timeout", timeouts + 1)).isEqualTo(timeouts + 1);
	}

	/**
	 * The count of summary requests with an outcome, once it reached the expected one or a second passed: the meter is
	 * recorded when the summary completes, on the thread that completed it, which may be after the HTTP answer left.
	 */
	private double requestsOnceRecorded(String outcome, double expected) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
		while (requests(outcome) < expected && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		return requests(outcome);
	}

	private double requests(String outcome) {
		io.micrometer.core.instrument.Timer timer = this.meters.find("arbor.summary.requests")
			.tag("provider", provider())
			.tag("outcome", outcome)
			.timer();
		return (timer != null) ? timer.count() : 0;
	}

	/** A message's text: its string content, or its text blocks joined. */
	static String text(JsonNode message) {
		JsonNode content = message.get("content");
		if (content.isString()) {
			return content.asString();
		}
		StringBuilder text = new StringBuilder();
		content.forEach(block -> text.append(block.path("text").asString("")));
		return text.toString();
	}

	private JsonNode navigate(String sessionId, Map<String, Object> body) {
		return ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/navigate?context=false", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isOk());
	}

}

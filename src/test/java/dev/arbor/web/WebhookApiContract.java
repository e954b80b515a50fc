package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A webhook configured under {@code arbor.hooks.webhooks}, played by a real local HTTP server
 * (docs/API.md#hooks-and-webhooks): what it receives, how its answers apply, its timeout, and aborting a navigation
 * that waits for it. A contract: {@link FileWebhookApiTests} and {@link PostgresWebhookApiTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Import(ScriptedSummarizer.Registered.class)
abstract class WebhookApiContract {

	private static final String SECRET = "s3cret-for-tests";

	private static final Duration TIMEOUT = Duration.ofSeconds(3);

	static final WebhookServer webhook = WebhookServer.start();

	@DynamicPropertySource
	static void hooks(DynamicPropertyRegistry registry) {
		registry.add("arbor.hooks.webhooks[0].name", () -> "test-webhook");
		registry.add("arbor.hooks.webhooks[0].url", webhook::url);
		registry.add("arbor.hooks.webhooks[0].secret", () -> SECRET);
		registry.add("arbor.hooks.webhooks[0].timeout", TIMEOUT::toString);
	}

	@Autowired
	RestTestClient client;

	@Autowired
	ScriptedSummarizer summarizer;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	@BeforeEach
	void reset() {
		webhook.reset();
		this.summarizer.reset();
	}

	@Test
	void theWebhookShouldReceiveTheFullEntriesToSummarizeWithAValidSignature() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode a1 = ApiSessions.append(this.client, sessionId,
				"{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"toolCall\",\"id\":\"call-1\",\"name\":\"read\",\"arguments\":{\"path\":\"src/a.ts\"}}],\"unknownField\":[1,2.50]}}");
		JsonNode u2 = ApiSessions.append(this.client, sessionId,
				"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"two\"}}");
		webhook.answer = request -> WebhookServer.Answer
			.json("{\"summary\":{\"summary\":\"From the webhook.\",\"details\":{\"readFiles\":[\"src/a.ts\"]}}}");

		JsonNode outcome = navigate(sessionId,
				Map.of("targetId", u1, "summarize", true, "customInstructions", "Be brief."));

		WebhookServer.Request request = webhook.nextRequest();
		assertThat(request.header("Content-Type")).isEqualTo("application/json");
		assertThat(request.header("X-Arbor-Event")).isEqualTo("session_before_tree");
		assertThat(request.header("X-Arbor-Signature-256")).isEqualTo("sha256=" + hmac(request.body()));
		JsonNode body = ApiSessions.json(request.body());
		assertThat(body.get("event").asString()).isEqualTo("session_before_tree");
		assertThat(body.get("sessionId").asString()).isEqualTo(sessionId);
		JsonNode preparation = body.get("preparation");
		assertThat(preparation.get("targetId").asString()).isEqualTo(u1);
		assertThat(preparation.get("oldLeafId").asString()).isEqualTo(u2.get("id").asString());
		assertThat(preparation.get("commonAncestorId").asString()).isEqualTo(u1);
		assertThat(preparation.get("userWantsSummary").asBoolean()).isTrue();
		assertThat(preparation.get("customInstructions").asString()).isEqualTo("Be brief.");
		assertThat(preparation.get("entriesToSummarize")).containsExactly(a1, u2);
		assertThat(new String(request.body(), StandardCharsets.UTF_8)).contains("\"unknownField\":[1,2.50]");

		JsonNode summary = outcome.get("summaryEntry");
		assertThat(summary.get("summary").asString()).isEqualTo("From the webhook.");
		assertThat(summary.get("details").get("readFiles").get(0).asString()).isEqualTo("src/a.ts");
		assertThat(summary.get("fromExtension").asBoolean()).isTrue();
		assertThat(summary.get("parentId").isNull()).isTrue();
		assertThat(this.summarizer.calls).isEmpty();
	}

	@Test
	void aWebhookShouldBeAbleToCancelABranch() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		String u2 = ApiSessions.appendUser(this.client, sessionId, "three");
		webhook.answer = request -> WebhookServer.Answer.json("{\"cancel\":true}");
		Map<String, String> before = stored().snapshot();
		JsonNode answer = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branch", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", u2))
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(answer.get("cancelled").asBoolean()).isTrue();
		WebhookServer.Request request = webhook.nextRequest();
		assertThat(request.header("X-Arbor-Event")).isEqualTo("session_before_branch");
		assertThat(ApiSessions.json(request.body())).isEqualTo(ApiSessions.json(("{\"event\":\"session_before_branch\",\"sessionId\":\""
				+ sessionId + "\",\"preparation\":{\"entryId\":\"" + u2 + "\"}}").getBytes(StandardCharsets.UTF_8)));
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void aWebhookFailingShouldCountAsNoAnswer() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		webhook.answer = request -> new WebhookServer.Answer(500, "{\"cancel\":true}", 0);
		JsonNode outcome = navigate(sessionId, Map.of("targetId", u1));
		assertThat(outcome.get("cancelled").asBoolean()).isFalse();
		assertThat(outcome.get("newLeafId").isNull()).isTrue();
	}

	@Test
	void aWebhookSleepingPastItsTimeoutShouldNotHoldTheNavigationLonger() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "two");
		webhook.answer = request -> new WebhookServer.Answer(200, "{\"cancel\":true}", 30_000);
		long start = System.nanoTime();
		JsonNode outcome = navigate(sessionId, Map.of("targetId", u1, "summarize", true));
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		// the late cancel never counted: the navigation went on with the model's summary
		assertThat(outcome.get("cancelled").asBoolean()).isFalse();
		assertThat(outcome.get("summaryEntry").get("summary").asString()).isEqualTo("Summary of " + a1);
		assertThat(took).as("held for the timeout (%s), not the webhook's 30 s", TIMEOUT)
			.isLessThan(TIMEOUT.plusSeconds(5));
	}

	@Test
	void abortingANavigationThatWaitsForASlowWebhookShouldChangeNothing() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "two");
		webhook.answer = request -> new WebhookServer.Answer(200, "{\"summary\":{\"summary\":\"late\"}}", 30_000);
		Map<String, String> before = stored().snapshot();
		CompletableFuture<JsonNode> navigation = CompletableFuture.supplyAsync(
				() -> navigate(sessionId, Map.of("targetId", u1, "summarize", true, "requestId", "slow-1")));
		webhook.nextRequest(); // the navigation now waits for the webhook
		this.client.delete()
			.uri("/sessions/{id}/navigations/{r}", sessionId, "slow-1")
			.exchange()
			.expectStatus()
			.isAccepted();
		JsonNode outcome = navigation.get(TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
		assertThat(outcome.get("cancelled").asBoolean()).isTrue();
		assertThat(outcome.get("aborted").asBoolean()).isTrue();
		assertThat(outcome.get("oldLeafId").asString()).isEqualTo(a1);
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(a1);
		assertThat(this.summarizer.calls).as("aborted before the model was asked").isEmpty();
		JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange());
		assertThat(session.get("leafId").asString()).isEqualTo(a1);
		assertThat(session.get("entryCount").asInt()).isEqualTo(2);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	private JsonNode navigate(String sessionId, Map<String, Object> body) {
		return ApiSessions.navigate(this.client, sessionId, body);
	}

	private static String hmac(byte[] body) throws Exception {
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
		return HexFormat.of().formatHex(mac.doFinal(body));
	}

}

package dev.arbor.web;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.arbor.events.HookAnswer;
import dev.arbor.session.Json;
import dev.arbor.summary.BranchSummary;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /sessions/{id}/navigate} over HTTP, one test per outcome of docs/SESSION-FORMAT.md#navigation, with an
 * in-process hook and a summary model whose answers each test sets. A contract: {@link FileNavigationApiTests} and
 * {@link PostgresNavigationApiTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Import({ ScriptedHook.Registered.class, ScriptedSummarizer.Registered.class })
abstract class NavigationApiContract {

	@Autowired
	RestTestClient client;

	@Autowired
	ScriptedHook hook;

	@Autowired
	ScriptedSummarizer summarizer;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	@BeforeEach
	void reset() {
		this.hook.reset();
		this.summarizer.reset();
	}

	/** user → assistant → user → assistant; the leaf on the last. */
	record Chain(String sessionId, String u1, String a1, String u2, String a2) {
	}

	Chain chain() {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "Make the config loader read env vars");
		String a1 = ApiSessions.appendAssistant(this.client, sessionId, "Done: src/config.ts reads ARBOR_* now.");
		String u2 = ApiSessions.appendUser(this.client, sessionId, "Now add a .env file");
		String a2 = ApiSessions.appendAssistant(this.client, sessionId, "Added .env support.");
		return new Chain(sessionId, u1, a1, u2, a2);
	}

	@Test
	void navigatingToARootUserMessageShouldResetTheLeafAndReturnItsText() {
		Chain chain = chain();
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.u1()));
		assertThat(outcome.get("cancelled").asBoolean()).isFalse();
		assertThat(outcome.get("aborted").asBoolean()).isFalse();
		assertThat(outcome.get("oldLeafId").asString()).isEqualTo(chain.a2());
		assertThat(outcome.get("newLeafId").isNull()).isTrue();
		assertThat(outcome.get("editorText").asString()).isEqualTo("Make the config loader read env vars");
		assertThat(outcome.get("summaryEntry").isNull()).isTrue();
		assertThat(outcome.get("context").get("leafId").isNull()).isTrue();
		assertThat(outcome.get("context").get("messages")).isEmpty();
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).isNull();
		assertThat(entryCount(chain.sessionId())).isEqualTo(4);
	}

	@Test
	void navigatingToAnAssistantEntryShouldPutTheLeafOnIt() {
		Chain chain = chain();
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.a1()));
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a1());
		assertThat(outcome.get("editorText").isNull()).isTrue();
		assertThat(outcome.get("context").get("leafId").asString()).isEqualTo(chain.a1());
		assertThat(outcome.get("context").get("messages")).hasSize(2);
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).isEqualTo(chain.a1());
	}

	@Test
	void navigatingToAUserMessageInTheMiddleShouldPutTheLeafOnItsParent() {
		Chain chain = chain();
		JsonNode outcome = this.client.post()
			.uri("/sessions/{id}/navigate", chain.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", chain.u2()))
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + chain.a1() + "\"")
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a1());
		assertThat(outcome.get("editorText").asString()).isEqualTo("Now add a .env file");
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).isEqualTo(chain.a1());
	}

	@Test
	void navigatingToACustomMessageShouldPutTheLeafOnItsParentAndReturnItsText() {
		Chain chain = chain();
		String custom = ApiSessions.append(this.client, chain.sessionId(),
				"{\"type\":\"custom_message\",\"customType\":\"note\",\"display\":true,\"content\":[{\"type\":\"text\",\"text\":\"Remember \"},{\"type\":\"image\",\"data\":\"AAAA\",\"mimeType\":\"image/png\"},{\"type\":\"text\",\"text\":\"the tests\"}]}")
			.get("id")
			.asString();
		ApiSessions.appendAssistant(this.client, chain.sessionId(), "Noted.");
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", custom));
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a2());
		assertThat(outcome.get("editorText").asString()).isEqualTo("Remember the tests");
	}

	@Test
	void navigatingToTheLeafShouldChangeNothing() {
		Chain chain = chain();
		Map<String, String> before = stored().snapshot();
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.a2(), "summarize", true));
		assertThat(outcome.get("cancelled").asBoolean()).isFalse();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a2());
		assertThat(outcome.get("oldLeafId").asString()).isEqualTo(chain.a2());
		assertThat(this.hook.treeCalls).isEmpty();
		assertThat(this.summarizer.calls).isEmpty();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void navigatingToAnUnknownEntryShouldBeA404() {
		Chain chain = chain();
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", chain.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", "nope1234"))
			.exchange(), HttpStatus.NOT_FOUND, "entry-not-found");
		assertThat(problem.get("detail").asString()).isEqualTo("Entry nope1234 not found");
		assertThat(problem.get("entryId").asString()).isEqualTo("nope1234");
		assertThat(this.hook.treeCalls).isEmpty();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void aHookSummaryAtARootTargetShouldBeANewRootSummary() {
		Chain chain = chain();
		this.hook.onTree = preparation -> HookAnswer.summary("The user asked for env vars and a .env file.",
				Json.newObject().put("source", "hook"));
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.u1(), "summarize", true));
		JsonNode summary = outcome.get("summaryEntry");
		assertThat(summary.get("type").asString()).isEqualTo("branch_summary");
		assertThat(summary.get("parentId").isNull()).isTrue();
		assertThat(summary.get("fromId").asString()).isEqualTo("root");
		assertThat(summary.get("summary").asString()).isEqualTo("The user asked for env vars and a .env file.");
		assertThat(summary.get("details")).isEqualTo(Json.newObject().put("source", "hook"));
		assertThat(summary.get("fromExtension").asBoolean()).isTrue();
		assertThat(outcome.get("fromExtension").asBoolean()).isTrue();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(summary.get("id").asString());
		assertThat(outcome.get("editorText").asString()).isEqualTo("Make the config loader read env vars");
		assertThat(this.summarizer.calls).as("a hook's summary replaces the model").isEmpty();
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).isEqualTo(summary.get("id").asString());
		JsonNode tree = ApiSessions.body(this.client.get().uri("/sessions/{id}/tree", chain.sessionId()).exchange());
		assertThat(tree.get("rootIds")).extracting(JsonNode::asString)
			.containsExactly(chain.u1(), summary.get("id").asString());
		// the target counts as the common ancestor: what is below it went to the hook, as stored
		assertThat(this.hook.treeCalls).singleElement().satisfies(preparation -> {
			assertThat(preparation.commonAncestorId()).isEqualTo(chain.u1());
			assertThat(preparation.entriesToSummarize()).extracting(entry -> entry.id())
				.containsExactly(chain.a1(), chain.u2(), chain.a2());
			assertThat(preparation.userWantsSummary()).isTrue();
		});
	}

	@Test
	void aHookSummaryAtAMiddleTargetShouldGiveTheTargetsParentASecondChild() {
		Chain chain = chain();
		this.hook.onTree = preparation -> HookAnswer.summary("Tried a .env file.", null);
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.u2(), "summarize", true));
		JsonNode summary = outcome.get("summaryEntry");
		assertThat(summary.get("parentId").asString()).isEqualTo(chain.a1());
		assertThat(summary.get("fromId").asString()).isEqualTo(chain.a1());
		assertThat(summary.has("details")).isFalse();
		JsonNode children = ApiSessions
			.body(this.client.get().uri("/sessions/{id}/entries/{e}/children", chain.sessionId(), chain.a1()).exchange());
		assertThat(children).extracting(child -> child.get("id").asString())
			.containsExactly(chain.u2(), summary.get("id").asString());
		assertThat(this.hook.treeCalls).singleElement().satisfies(preparation -> {
			assertThat(preparation.commonAncestorId()).isEqualTo(chain.u2());
			assertThat(preparation.entriesToSummarize()).extracting(entry -> entry.id()).containsExactly(chain.a2());
		});
		// the context at the new leaf ends with the summary
		JsonNode messages = outcome.get("context").get("messages");
		assertThat(messages.get(messages.size() - 1).get("role").asString()).isEqualTo("branchSummary");
	}

	@Test
	void aHookSummaryShouldBeIgnoredWhenNoSummaryWasAskedFor() {
		Chain chain = chain();
		this.hook.onTree = preparation -> HookAnswer.summary("unwanted", null);
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.a1()));
		assertThat(outcome.get("summaryEntry").isNull()).isTrue();
		assertThat(outcome.get("fromExtension").isNull()).isTrue();
		assertThat(entryCount(chain.sessionId())).isEqualTo(4);
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).isEqualTo(chain.a1());
	}

	@Test
	void aCancellingHookShouldChangeNothing() {
		Chain chain = chain();
		this.hook.onTree = preparation -> HookAnswer.CANCEL;
		Map<String, String> before = stored().snapshot();
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.u1(), "summarize", true));
		assertThat(outcome.get("cancelled").asBoolean()).isTrue();
		assertThat(outcome.get("aborted").asBoolean()).isFalse();
		assertThat(outcome.get("oldLeafId").asString()).isEqualTo(chain.a2());
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a2());
		assertThat(outcome.has("context")).isFalse();
		assertThat(this.summarizer.calls).isEmpty();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void summarizingWithNothingToSummarizeShouldWriteNoSummary() {
		Chain chain = chain();
		navigate(chain.sessionId(), Map.of("targetId", chain.a1()));
		// forward again, down the path: the common ancestor is the old leaf, nothing is left behind
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.a2(), "summarize", true));
		assertThat(outcome.get("summaryEntry").isNull()).isTrue();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a2());
		assertThat(this.summarizer.calls).isEmpty();
		assertThat(entryCount(chain.sessionId())).isEqualTo(4);
	}

	@Test
	void theModelShouldSummarizeTheAbandonedEntriesWithTheCustomInstructions() {
		Chain chain = chain();
		JsonNode outcome = navigate(chain.sessionId(),
				Map.of("targetId", chain.a1(), "summarize", true, "customInstructions", "Keep it short."));
		assertThat(this.summarizer.calls).containsExactly(
				new ScriptedSummarizer.Call(List.of(chain.u2(), chain.a2()), "Keep it short."));
		JsonNode summary = outcome.get("summaryEntry");
		assertThat(summary.get("summary").asString()).isEqualTo("Summary of " + chain.u2() + "," + chain.a2());
		assertThat(summary.get("parentId").asString()).isEqualTo(chain.a1());
		assertThat(summary.get("fromExtension").asBoolean()).isFalse();
		assertThat(summary.get("details")).isEqualTo(Json.newObject().put("by", "scripted"));
		assertThat(outcome.get("fromExtension").asBoolean()).isFalse();
	}

	@Test
	void abandonedEntriesWithoutMessagesShouldBeSummarizedWithoutTheModel() {
		Chain chain = chain();
		ApiSessions.append(this.client, chain.sessionId(), "{\"type\":\"model_change\",\"model\":\"openai/gpt-5\"}");
		ApiSessions.append(this.client, chain.sessionId(), "{\"type\":\"custom\",\"customType\":\"x\"}");
		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.a2(), "summarize", true));
		assertThat(this.summarizer.calls).isEmpty();
		JsonNode summary = outcome.get("summaryEntry");
		assertThat(summary.get("summary").asString()).isEqualTo("No content to summarize");
		assertThat(summary.get("details").toString()).isEqualTo("{\"readFiles\":[],\"modifiedFiles\":[]}");
		assertThat(summary.get("parentId").asString()).isEqualTo(chain.a2());
	}

	@Test
	void aFailingModelShouldBeA502AndChangeNothing() {
		Chain chain = chain();
		this.summarizer.answer = entries -> CompletableFuture.failedFuture(new IllegalStateException("rate limited"));
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", chain.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", chain.a1(), "summarize", true))
			.exchange(), HttpStatus.BAD_GATEWAY, "summary-failed");
		assertThat(problem.get("detail").asString()).contains("rate limited");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void aDryRunShouldEqualWhatTheNavigationThenDoes() {
		Chain chain = chain();
		Map<String, String> before = stored().snapshot();
		JsonNode preview = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/navigate?dryRun=true", chain.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", chain.u2(), "summarize", true))
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + chain.a2() + "\""));
		assertThat(stored().snapshot()).as("a dry run changes nothing").isEqualTo(before);
		assertThat(this.hook.treeCalls).as("a dry run asks no hook").isEmpty();
		assertThat(preview.get("targetId").asString()).isEqualTo(chain.u2());
		assertThat(preview.get("oldLeafId").asString()).isEqualTo(chain.a2());
		assertThat(preview.get("commonAncestorId").asString()).isEqualTo(chain.u2());
		assertThat(preview.get("entryIdsToSummarize")).extracting(JsonNode::asString).containsExactly(chain.a2());
		assertThat(preview.get("newLeafId").asString()).isEqualTo(chain.a1());
		assertThat(preview.get("editorText").asString()).isEqualTo("Now add a .env file");

		JsonNode outcome = navigate(chain.sessionId(), Map.of("targetId", chain.u2(), "summarize", true));
		assertThat(outcome.get("oldLeafId")).isEqualTo(preview.get("oldLeafId"));
		assertThat(outcome.get("editorText")).isEqualTo(preview.get("editorText"));
		assertThat(outcome.get("summaryEntry").get("parentId")).isEqualTo(preview.get("newLeafId"));
		assertThat(this.summarizer.calls).singleElement()
			.satisfies(call -> assertThat(call.entryIds()).containsExactly(chain.a2()));
		assertThat(this.hook.treeCalls).singleElement()
			.satisfies(preparation -> assertThat(preparation.commonAncestorId())
				.isEqualTo(preview.get("commonAncestorId").asString()));
	}

	@Test
	void contextFalseShouldLeaveTheContextOut() {
		Chain chain = chain();
		JsonNode outcome = ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/navigate?context=false", chain.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", chain.a1()))
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(outcome.has("context")).isFalse();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a1());
	}

	@Test
	void aStaleIfMatchShouldBeA412AndChangeNothing() {
		Chain chain = chain();
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", chain.sessionId())
			.header(HttpHeaders.IF_MATCH, "\"" + chain.a1() + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", chain.u1()))
			.exchange(), HttpStatus.PRECONDITION_FAILED, "leaf-moved");
		assertThat(problem.get("leafId").asString()).isEqualTo(chain.a2());
		assertThat(this.hook.treeCalls).isEmpty();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void aMissingTargetShouldBeA400NamingIt() {
		Chain chain = chain();
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", chain.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("summarize", true))
			.exchange(), HttpStatus.BAD_REQUEST, "invalid-field");
		assertThat(problem.get("field").asString()).isEqualTo("targetId");
	}

	@Test
	void abortingWithoutANavigationInFlightShouldBeA404() {
		Chain chain = chain();
		ApiSessions.problem(this.client.delete()
			.uri("/sessions/{id}/navigations/{r}", chain.sessionId(), "nav-1")
			.exchange(), HttpStatus.NOT_FOUND, "navigation-not-found");
	}

	@Test
	void abortingAStalledModelShouldChangeNothing() throws Exception {
		Chain chain = chain();
		CompletableFuture<BranchSummary> stalled = new CompletableFuture<>();
		this.summarizer.answer = entries -> stalled;
		Map<String, String> before = stored().snapshot();
		CompletableFuture<JsonNode> navigation = CompletableFuture.supplyAsync(() -> navigate(chain.sessionId(),
				Map.of("targetId", chain.a1(), "summarize", true, "requestId", "nav-stalled")));
		awaitCalls();
		// a second navigation under the same id is refused while the first runs
		ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate?dryRun=false", chain.sessionId())
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", chain.a1(), "requestId", "nav-stalled"))
			.exchange(), HttpStatus.CONFLICT, "navigation-in-progress");
		this.client.delete()
			.uri("/sessions/{id}/navigations/{r}", chain.sessionId(), "nav-stalled")
			.exchange()
			.expectStatus()
			.isAccepted();
		JsonNode outcome = navigation.get(10, java.util.concurrent.TimeUnit.SECONDS);
		assertThat(outcome.get("cancelled").asBoolean()).isTrue();
		assertThat(outcome.get("aborted").asBoolean()).isTrue();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a2());
		assertThat(stalled).as("the model call is cancelled").isCancelled();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void writesShouldWaitWhileANavigationRuns() throws Exception {
		Chain chain = chain();
		java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
		java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
		this.hook.onTree = preparation -> {
			asked.countDown();
			try {
				answer.await(20, java.util.concurrent.TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return HookAnswer.NONE;
		};
		CompletableFuture<JsonNode> navigation = CompletableFuture
			.supplyAsync(() -> navigate(chain.sessionId(), Map.of("targetId", chain.a1())));
		assertThat(asked.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		CompletableFuture<JsonNode> append = CompletableFuture
			.supplyAsync(() -> ApiSessions.append(this.client, chain.sessionId(),
					"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"meanwhile\"}}"));
		Thread.sleep(300);
		assertThat(append).as("the append waits for the navigation").isNotDone();
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).as("reads go on").isEqualTo(chain.a2());
		answer.countDown();
		assertThat(navigation.get(10, java.util.concurrent.TimeUnit.SECONDS).get("newLeafId").asString())
			.isEqualTo(chain.a1());
		// it lands where the navigation left the leaf, never under the old one
		assertThat(append.get(10, java.util.concurrent.TimeUnit.SECONDS).get("parentId").asString())
			.isEqualTo(chain.a1());
	}

	private void awaitCalls() throws InterruptedException {
		for (int i = 0; i < 500 && this.summarizer.calls.isEmpty(); i++) {
			Thread.sleep(10);
		}
		assertThat(this.summarizer.calls).isNotEmpty();
	}

	private JsonNode navigate(String sessionId, Map<String, Object> body) {
		return ApiSessions.navigate(this.client, sessionId, body);
	}

	private int entryCount(String sessionId) {
		return ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange())
			.get("entryCount")
			.asInt();
	}

}

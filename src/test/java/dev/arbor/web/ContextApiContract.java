package dev.arbor.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.arbor.Fixtures;
import dev.arbor.TestSessions;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /sessions/{id}/context} over HTTP (docs/API.md#context; docs/SESSION-FORMAT.md#the-model-context): the
 * state tracked along the path, the messages with compactions, branch summaries and custom messages, the model view,
 * and the omp fixture. A contract: {@link FileContextApiTests} and {@link PostgresContextApiTests} run it on each
 * store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class ContextApiContract {

	/** The header id of {@link Fixtures#OMP_V3}, under which the import stores it. */
	private static final String OMP_ID = "d703a1a9-1b7b-4fb1-b512-c9738b1fe617";

	/** The fixture's last entry in file order, its leaf after import. */
	private static final String OMP_LEAF = "c7739972";

	/** The leaf of {@link TestSessions#OMP_V3} after import: its last entry in file order. */
	private static final String TEST_SESSION_LEAF = "992acf8d";

	private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

	@Autowired
	RestTestClient client;

	// State (docs/SESSION-FORMAT.md#the-model-context)

	@Test
	void getContextShouldTrackStateAlongThePathOnly() {
		String sessionId = importSession(entry("thinking_level_change", "s1", null, 1, "'thinkingLevel':'high'"),
				entry("model_change", "s2", "s1", 2, "'model':'anthropic/claude-opus-4-5'"),
				entry("model_change", "s3", "s2", 3, "'model':'openai/gpt-5-mini','role':'smol'"),
				entry("mode_change", "s4", "s3", 4, "'mode':'plan','data':{'step':1}"),
				entry("ttsr_injection", "s5", "s4", 5, "'injectedRules':['tests-first','no-mocks']"),
				user("u1", "s5", 6, "hi"),
				// A side branch, written first: none of its state is on the leaf's path.
				entry("thinking_level_change", "x1", "u1", 7, "'thinkingLevel':'xhigh'"),
				entry("model_change", "x2", "x1", 8, "'model':'google/gemini-2.5-pro'"),
				entry("mode_change", "x3", "x2", 9, "'mode':'debug'"),
				entry("ttsr_injection", "x4", "x3", 10, "'injectedRules':['side-rule']"),
				// The main branch: an assistant after an explicit default model change leaves the default alone.
				assistant("a1", "u1", 11, "hello", "anthropic", "claude-sonnet-4-5"),
				entry("custom", "c1", "a1", 12, "'customType':'ext-state','data':{'k':1}"),
				entry("ttsr_injection", "s6", "c1", 13, "'injectedRules':['no-mocks','small-classes']"),
				entry("thinking_level_change", "s7", "s6", 14, "'thinkingLevel':'low'"),
				entry("mode_change", "s8", "s7", 15, "'mode':'review','data':{'strict':true}"),
				entry("label", "l1", "s8", 16, "'targetId':'u1','label':'start'"),
				entry("session_init", "i1", "l1", 17, "'systemPrompt':'be brief'"),
				entry("future_kind", "f1", "i1", 18, "'whatever':true"), user("u2", "f1", 19, "bye"));
		JsonNode context = getContext(sessionId, "u2", "");
		assertThat(context.get("leafId").asString()).isEqualTo("u2");
		assertThat(context.get("thinkingLevel").asString()).isEqualTo("low");
		assertThat(context.get("models")).isEqualTo(json("{'default':'anthropic/claude-opus-4-5','smol':'openai/gpt-5-mini'}"));
		assertThat(context.get("mode").asString()).isEqualTo("review");
		assertThat(context.get("modeData")).isEqualTo(json("{'strict':true}"));
		assertThat(strings(context.get("injectedTtsrRules"))).containsExactly("tests-first", "no-mocks", "small-classes");
		// State entries, custom entries, labels and unknown types emit no message.
		assertThat(roles(context)).containsExactly("user", "assistant", "user");
	}

	@Test
	void getContextWithoutStateEntriesShouldAnswerTheDefaults() {
		String sessionId = importSession(user("u1", null, 1, "hi"));
		JsonNode context = getContext(sessionId, "u1", "");
		assertThat(context.get("thinkingLevel").asString()).isEqualTo("off");
		assertThat(context.get("models")).isEqualTo(json("{}"));
		assertThat(context.get("mode").asString()).isEqualTo("none");
		assertThat(context.get("modeData").isNull()).isTrue();
		assertThat(context.get("injectedTtsrRules")).isEmpty();
	}

	@Test
	void getContextWithoutADefaultModelChangeShouldTakeTheDefaultModelFromTheLatestAssistant() {
		String sessionId = importSession(entry("thinking_level_change", "t1", null, 1, "'thinkingLevel':'high'"),
				user("u1", "t1", 2, "hi"), assistant("a1", "u1", 3, "hello", "anthropic", "claude-sonnet-4-5"),
				entry("model_change", "m1", "a1", 4, "'model':'openai/gpt-5-mini','role':'smol'"),
				assistant("a2", "m1", 5, "hello again", "openai", "gpt-5"),
				entry("thinking_level_change", "t2", "a2", 6, "'thinkingLevel':null"));
		JsonNode atLeaf = getContext(sessionId, "t2", "");
		assertThat(atLeaf.get("models")).isEqualTo(json("{'default':'openai/gpt-5','smol':'openai/gpt-5-mini'}"));
		// A null thinking level means off (docs/SESSION-FORMAT.md#the-model-context).
		assertThat(atLeaf.get("thinkingLevel").asString()).isEqualTo("off");
		JsonNode atFirstAnswer = getContext(sessionId, "t2", "?leafId=a1");
		assertThat(atFirstAnswer.get("models")).isEqualTo(json("{'default':'anthropic/claude-sonnet-4-5'}"));
		assertThat(atFirstAnswer.get("thinkingLevel").asString()).isEqualTo("high");
		assertThat(getContext(sessionId, "t2", "?leafId=u1").get("models")).isEqualTo(json("{}"));
	}

	// Messages (docs/SESSION-FORMAT.md#the-model-context)

	@Test
	void getContextShouldEmitMessagesExactlyAsStored() {
		String first = user("u1", null, 1, "hi");
		String second = "{'type':'message','id':'a1','parentId':'u1','timestamp':'" + at(2) + "','message':{'role':'assistant',"
				+ "'content':[{'type':'thinking','thinking':'hmm'},{'type':'text','text':'hello'}],'provider':'anthropic',"
				+ "'model':'claude-sonnet-4-5','usage':{'input':10,'output':2.50},'stopReason':'stop','extra':{'kept':[1,2]},"
				+ "'timestamp':" + millis(2) + "}}";
		String sessionId = importSession(first, second);
		JsonNode context = getContext(sessionId, "a1", "");
		assertThat(context.get("messages")).containsExactly(json(first).get("message"), json(second).get("message"));
	}

	@Test
	void getContextWithCompactionsShouldStartAtTheLatestSummaryAndItsFirstKeptEntry() {
		String sessionId = importSession(entry("thinking_level_change", "t1", null, 0, "'thinkingLevel':'medium'"),
				user("c1", "t1", 1, "one"), assistant("c2", "c1", 2, "two"), user("c3", "c2", 3, "three"),
				assistant("c4", "c3", 4, "four"),
				compaction("k1", "c4", 5, "Earlier: one and two.", "c3", 1234), user("c5", "k1", 6, "five"),
				assistant("c6", "c5", 7, "six"),
				compaction("k2", "c6", 8, "Later: up to six.", "c5", 5678), user("c7", "k2", 9, "seven"));
		JsonNode atLeaf = getContext(sessionId, "c7", "");
		assertThat(atLeaf.get("messages").get(0))
			.isEqualTo(json("{'role':'compactionSummary','summary':'Later: up to six.','tokensBefore':5678,'timestamp':"
					+ millis(8) + "}"));
		assertThat(texts(atLeaf)).containsExactly("Later: up to six.", "five", "six", "seven");
		// State from before a compaction still counts.
		assertThat(atLeaf.get("thinkingLevel").asString()).isEqualTo("medium");
		JsonNode beforeTheSecond = getContext(sessionId, "c7", "?leafId=c6");
		assertThat(roles(beforeTheSecond)).containsExactly("compactionSummary", "user", "assistant", "user", "assistant");
		assertThat(texts(beforeTheSecond)).containsExactly("Earlier: one and two.", "three", "four", "five", "six");
		assertThat(beforeTheSecond.get("messages").get(0).get("tokensBefore").asInt()).isEqualTo(1234);
	}

	@Test
	void getContextWhenTheFirstKeptEntryIsNotOnThePathShouldKeepNothingBeforeTheCompaction() {
		String sessionId = importSession(user("c1", null, 1, "one"), assistant("c2", "c1", 2, "two"),
				compaction("k1", "c2", 3, "All of it.", "gone0001", 99), user("c3", "k1", 4, "three"));
		assertThat(texts(getContext(sessionId, "c3", ""))).containsExactly("All of it.", "three");
	}

	@Test
	void getContextWithCustomMessagesShouldEmitThemWithRoleCustom() {
		String sessionId = importSession(user("u1", null, 1, "hi"),
				entry("custom_message", "cm1", "u1", 2,
						"'customType':'note','content':'Remember the flag','display':true,'details':{'source':'ext'}"),
				entry("custom_message", "cm2", "cm1", 3, "'customType':'shot','content':[{'type':'text','text':'see this'},"
						+ "{'type':'image','data':'aGk=','mimeType':'image/png'}],'display':false"));
		JsonNode messages = getContext(sessionId, "cm2", "").get("messages");
		assertThat(messages.get(1)).isEqualTo(json("{'role':'custom','customType':'note','content':'Remember the flag',"
				+ "'display':true,'details':{'source':'ext'},'timestamp':" + millis(2) + "}"));
		assertThat(messages.get(2)).isEqualTo(json("{'role':'custom','customType':'shot','content':[{'type':'text',"
				+ "'text':'see this'},{'type':'image','data':'aGk=','mimeType':'image/png'}],'display':false,'timestamp':"
				+ millis(3) + "}"));
	}

	@Test
	void getContextAfterABranchSummaryShouldEmitItWithRoleBranchSummary() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		JsonNode summary = branchSummary(sessionId, "\"" + first + "\"", "Tried two; came back.");
		String summaryId = summary.get("id").asString();
		JsonNode context = getContext(sessionId, summaryId, "");
		assertThat(context.get("leafId").asString()).isEqualTo(summaryId);
		assertThat(roles(context)).containsExactly("user", "branchSummary");
		assertThat(context.get("messages").get(1)).isEqualTo(json("{'role':'branchSummary','summary':'Tried two; came back.',"
				+ "'fromId':'" + first + "','timestamp':" + epochMillis(summary) + "}"));
	}

	@Test
	void getContextAfterABranchSummaryWithoutTextShouldEmitNothingForIt() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode summary = branchSummary(sessionId, "null", "");
		JsonNode context = getContext(sessionId, summary.get("id").asString(), "");
		assertThat(context.get("messages")).isEmpty();
	}

	@Test
	void getContextAfterARootBranchSummaryShouldNameRootAsItsOrigin() {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "one");
		JsonNode summary = branchSummary(sessionId, "null", "Started over.");
		JsonNode messages = getContext(sessionId, summary.get("id").asString(), "").get("messages");
		assertThat(messages).hasSize(1);
		assertThat(messages.get(0).get("fromId").asString()).isEqualTo("root");
	}

	// The model view (docs/SESSION-FORMAT.md#the-llm-view)

	@Test
	void getContextInLlmFormatShouldTurnSummariesAndCustomMessagesIntoUserMessages() {
		String kept = user("c2", "c1", 2, "two");
		String answer = assistant("c3", "c2", 3, "three", "anthropic", "claude-sonnet-4-5");
		String toolResult = "{'type':'message','id':'r1','parentId':'bx','timestamp':'" + at(7) + "','message':{'role':"
				+ "'toolResult','toolCallId':'call1','toolName':'read','content':[{'type':'text','text':'file'}],"
				+ "'isError':false,'timestamp':" + millis(7) + "}}";
		String sessionId = importSession(user("c1", null, 1, "one"), kept, answer,
				compaction("k1", "c3", 4, "Earlier: one.", "c2", 1234),
				entry("custom_message", "cm", "k1", 5, "'customType':'note','content':'Remember the flag','display':true"),
				entry("message", "bx", "cm", 6, "'message':{'role':'bashExecution','command':'ls','output':'a.txt',"
						+ "'exitCode':0,'cancelled':false,'truncated':false,'timestamp':" + millis(6) + "}"),
				toolResult);
		JsonNode agent = getContext(sessionId, "r1", "?format=agent");
		assertThat(roles(agent)).containsExactly("compactionSummary", "user", "assistant", "custom", "bashExecution",
				"toolResult");
		JsonNode llm = getContext(sessionId, "r1", "?format=llm");
		assertThat(roles(llm)).containsExactly("user", "user", "assistant", "user", "user", "toolResult");
		JsonNode messages = llm.get("messages");
		String compacted = onlyText(messages.get(0));
		assertThat(compacted).matches("(?s)[^\\n]+\\n\\n<summary>\\n?Earlier: one\\.\\n?</summary>");
		assertThat(compacted).containsIgnoringCase("compacted");
		assertThat(messages.get(0).get("timestamp").asLong()).isEqualTo(millis(4));
		assertThat(messages.get(1)).isEqualTo(json(kept).get("message"));
		assertThat(messages.get(2)).isEqualTo(json(answer).get("message"));
		assertThat(messages.get(3).get("content")).isEqualTo(json("[{'type':'text','text':'Remember the flag'}]"));
		assertThat(onlyText(messages.get(4))).contains("ls").contains("a.txt");
		assertThat(messages.get(5)).isEqualTo(json(toolResult).get("message"));
		// The state is the same in both views.
		assertThat(llm.get("leafId")).isEqualTo(agent.get("leafId"));
		assertThat(llm.get("models")).isEqualTo(agent.get("models"));
	}

	@Test
	void getContextInLlmFormatShouldWrapABranchSummaryInSummaryTags() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		JsonNode summary = branchSummary(sessionId, "\"" + first + "\"", "Tried two; came back.");
		JsonNode messages = getContext(sessionId, summary.get("id").asString(), "?format=llm").get("messages");
		assertThat(messages).hasSize(2);
		assertThat(messages.get(1).get("role").asString()).isEqualTo("user");
		assertThat(onlyText(messages.get(1))).matches("(?s)[^\\n]*branch[^\\n]*\\n\\n<summary>\\n?Tried two; came back\\.\\n?</summary>");
		assertThat(messages.get(1).get("timestamp").asLong()).isEqualTo(epochMillis(summary));
	}

	// Where it is built

	@Test
	void getContextAtAnEntryShouldBuildItThereAndKeepTheSessionLeafAsETag() {
		String sessionId = importSession(user("e1", null, 1, "one"), assistant("e2", "e1", 2, "two", "anthropic", "claude"),
				entry("thinking_level_change", "e3", "e2", 3, "'thinkingLevel':'high'"), user("e4", "e3", 4, "three"));
		JsonNode context = getContext(sessionId, "e4", "?leafId=e2");
		assertThat(context.get("leafId").asString()).isEqualTo("e2");
		assertThat(texts(context)).containsExactly("one", "two");
		assertThat(context.get("thinkingLevel").asString()).isEqualTo("off");
		assertThat(getContext(sessionId, "e4", "?leafId=e2&format=llm").get("messages")).hasSize(2);
	}

	@Test
	void getContextWhenLeafIsNullShouldBeEmptyWithRootAsETag() {
		String sessionId = ApiSessions.create(this.client);
		this.client.get()
			.uri("/sessions/{id}/context", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.json("{'leafId':null,'thinkingLevel':'off','models':{},'mode':'none','modeData':null,'injectedTtsrRules':[],"
					.replace('\'', '"') + "\"messages\":[]}", JsonCompareMode.STRICT);
	}

	@Test
	void getContextWhenLeafIdIsUnknownShouldReturn404() {
		String sessionId = importSession(user("e1", null, 1, "one"));
		JsonNode problem = ApiSessions.problem(
				this.client.get().uri("/sessions/{id}/context?leafId={leafId}", sessionId, "deadbeef").exchange(),
				HttpStatus.NOT_FOUND, "entry-not-found");
		assertThat(problem.get("entryId").asString()).isEqualTo("deadbeef");
		assertThat(problem.get("detail").asString()).isEqualTo("Entry deadbeef not found");
	}

	@Test
	void getContextWhenLeafIdIsNoIdShouldReturn400() {
		String sessionId = importSession(user("e1", null, 1, "one"));
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/context?leafId={leafId}", sessionId, "../e1").exchange(),
				HttpStatus.BAD_REQUEST, "invalid-id");
	}

	@Test
	void getContextWhenFormatIsUnknownShouldReturn400NamingTheFormats() {
		String sessionId = importSession(user("e1", null, 1, "one"));
		JsonNode problem = ApiSessions.problem(this.client.get().uri("/sessions/{id}/context?format=openai", sessionId).exchange(),
				HttpStatus.BAD_REQUEST, "invalid-parameter");
		assertThat(problem.get("parameter").asString()).isEqualTo("format");
		assertThat(problem.get("detail").asString()).contains("openai").contains("agent").contains("llm");
	}

	@Test
	void getContextWhenFormatIsAnEnumConstantShouldReturn400() {
		String sessionId = importSession(user("e1", null, 1, "one"));
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/context?format=LLM", sessionId).exchange(), HttpStatus.BAD_REQUEST,
				"invalid-parameter");
	}

	@Test
	void getContextWhenSessionIsUnknownShouldReturn404() {
		ApiSessions.problem(this.client.get().uri("/sessions/{id}/context", "no-such-session").exchange(), HttpStatus.NOT_FOUND,
				"session-not-found");
	}

	// The omp fixture

	@Test
	void getContextOfTheOmpFixtureShouldHoldEveryMessageAndTheLegacyModelChangeAsDefault() throws IOException {
		importOmpFixture();
		JsonNode context = getContext(OMP_ID, OMP_LEAF, "");
		assertThat(context.get("leafId").asString()).isEqualTo(OMP_LEAF);
		// No compaction: all 914 messages of the one chain.
		assertThat(context.get("messages")).hasSize(914);
		// The legacy model_change (provider + modelId, no role) is an explicit default
		// (docs/SESSION-FORMAT.md#the-model-context).
		assertThat(context.get("models")).isEqualTo(json("{'default':'anthropic/claude-sonnet-4-5'}"));
		// The latest of the 103 thinking level changes (6182da8c) is off.
		assertThat(context.get("thinkingLevel").asString()).isEqualTo("off");
		assertThat(context.get("mode").asString()).isEqualTo("none");
		assertThat(context.get("injectedTtsrRules")).isEmpty();
		String firstEntry = Files.readAllLines(Fixtures.path(Fixtures.OMP_V3), StandardCharsets.UTF_8).get(2);
		assertThat(context.get("messages").get(0)).isEqualTo(Json.MAPPER.readTree(firstEntry).get("message"));
	}

	@Test
	void getContextOfTheOmpFixtureAtEarlierEntriesShouldTrackTheStateUpToThere() {
		importOmpFixture();
		// bbc5e480 is the last change to a level other than off: 557 messages precede it.
		JsonNode atHigh = getContext(OMP_ID, OMP_LEAF, "?leafId=bbc5e480");
		assertThat(atHigh.get("thinkingLevel").asString()).isEqualTo("high");
		assertThat(atHigh.get("messages")).hasSize(557);
		// Before the model change only the first, aborted, assistant message names a model.
		JsonNode beforeModelChange = getContext(OMP_ID, OMP_LEAF, "?leafId=19e7dd4e");
		assertThat(beforeModelChange.get("models")).isEqualTo(json("{'default':'openai/gpt-5.1-codex'}"));
		assertThat(beforeModelChange.get("messages")).hasSize(2);
	}

	@Test
	void getContextOfTheOmpFixtureInLlmFormatShouldPassEveryMessageUnchanged() {
		importOmpFixture();
		JsonNode agent = getContext(OMP_ID, OMP_LEAF, "");
		JsonNode llm = getContext(OMP_ID, OMP_LEAF, "?format=llm");
		assertThat(llm.get("messages")).isEqualTo(agent.get("messages"));
		assertThat(roles(llm)).containsOnly("user", "assistant", "toolResult");
	}

	@Test
	void getContextOfTheOmpTestSessionShouldStartAtItsLatestCompactionAndTrackModelsPerRole() {
		importOmpTestSession();
		JsonNode context = getContext(TestSessions.SESSION_ID, TEST_SESSION_LEAF, "");
		assertThat(context.get("leafId").asString()).isEqualTo(TEST_SESSION_LEAF);
		assertThat(roles(context)).hasSize(24).startsWith("compactionSummary", "user").containsOnlyOnce("branchSummary");
		assertThat(context.get("models"))
			.isEqualTo(json("{'default':'anthropic/claude-sonnet-4-5','smol':'anthropic/claude-haiku-4-5'}"));
		assertThat(context.get("thinkingLevel").asString()).isEqualTo("medium");
		JsonNode llm = getContext(TestSessions.SESSION_ID, TEST_SESSION_LEAF, "?format=llm");
		assertThat(roles(llm)).hasSize(24).containsOnly("user", "assistant", "toolResult");
	}

	// Sessions and requests

	/** Imports a session file: a header with a fresh id, then the entries (JSON with single quotes). */
	private String importSession(String... entries) {
		String sessionId = "context-" + UUID.randomUUID();
		StringBuilder file = new StringBuilder("{\"type\":\"session\",\"version\":3,\"id\":\"" + sessionId
				+ "\",\"timestamp\":\"" + at(0) + "\",\"cwd\":\"/work/project\"}\n");
		for (String entry : entries) {
			file.append(entry.replace('\'', '"')).append('\n');
		}
		this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(file.toString())
			.exchange()
			.expectStatus()
			.isCreated();
		return sessionId;
	}

	/** The omp fixture, imported unchanged once per store; tests only read it. */
	private void importOmpFixture() {
		ApiSessions.importOnce(this.client, OMP_ID, Fixtures.bytes(Fixtures.OMP_V3));
	}

	/** The omp test session, imported unchanged once per store; tests only read it. */
	private void importOmpTestSession() {
		ApiSessions.importOnce(this.client, TestSessions.SESSION_ID, TestSessions.bytes(TestSessions.OMP_V3));
	}

	/** {@code POST /branch-summaries}; {@code fromId} is JSON ({@code "null"} or a quoted id). */
	private JsonNode branchSummary(String sessionId, String fromId, String summary) {
		return ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branch-summaries", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"fromId\":" + fromId + ",\"summary\":" + Json.MAPPER.writeValueAsString(summary) + "}")
			.exchange()
			.expectStatus()
			.isCreated());
	}

	/** The context, checking the status and that {@code ETag} is the session's leaf. */
	private JsonNode getContext(String sessionId, String sessionLeafId, String query) {
		return ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/context" + query, sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + sessionLeafId + "\""));
	}

	// Reading answers

	private static List<String> roles(JsonNode context) {
		List<String> roles = new ArrayList<>();
		context.get("messages").forEach(message -> roles.add(message.get("role").asString()));
		return roles;
	}

	/** Each message's text: a summary's summary, else the text of its content. */
	private static List<String> texts(JsonNode context) {
		List<String> texts = new ArrayList<>();
		context.get("messages").forEach(message -> texts.add(message.has("summary") ? message.get("summary").asString()
				: onlyText(message)));
		return texts;
	}

	/** The text of a message whose content is one text block (or a string). */
	private static String onlyText(JsonNode message) {
		JsonNode content = message.get("content");
		if (content.isString()) {
			return content.asString();
		}
		List<String> texts = new ArrayList<>();
		content.forEach(block -> {
			if ("text".equals(block.get("type").asString())) {
				texts.add(block.get("text").asString());
			}
		});
		assertThat(texts).as("text blocks of %s", message).hasSize(1);
		return texts.get(0);
	}

	private static List<String> strings(JsonNode array) {
		List<String> strings = new ArrayList<>();
		array.forEach(element -> strings.add(element.asString()));
		return strings;
	}

	private static long epochMillis(JsonNode entry) {
		return Instant.parse(entry.get("timestamp").asString()).toEpochMilli();
	}

	/** JSON written with single quotes. */
	private static JsonNode json(String singleQuoted) {
		return Json.MAPPER.readTree(singleQuoted.replace('\'', '"'));
	}

	// Entries, written as JSON with single quotes

	private static String entry(String type, String id, @Nullable String parentId, int second, String fields) {
		return "{'type':'" + type + "','id':'" + id + "','parentId':" + ((parentId != null) ? "'" + parentId + "'" : "null")
				+ ",'timestamp':'" + at(second) + "'" + (fields.isEmpty() ? "" : "," + fields) + "}";
	}

	private static String user(String id, @Nullable String parentId, int second, String text) {
		return entry("message", id, parentId, second,
				"'message':{'role':'user','content':[{'type':'text','text':'" + text + "'}],'timestamp':" + millis(second) + "}");
	}

	private static String assistant(String id, String parentId, int second, String text) {
		return assistant(id, parentId, second, text, "anthropic", "claude-sonnet-4-5");
	}

	private static String assistant(String id, String parentId, int second, String text, String provider, String model) {
		return entry("message", id, parentId, second, "'message':{'role':'assistant','content':[{'type':'text','text':'"
				+ text + "'}],'provider':'" + provider + "','model':'" + model + "','stopReason':'stop','timestamp':"
				+ millis(second) + "}");
	}

	private static String compaction(String id, String parentId, int second, String summary, String firstKeptEntryId,
			int tokensBefore) {
		return entry("compaction", id, parentId, second, "'summary':'" + summary + "','firstKeptEntryId':'"
				+ firstKeptEntryId + "','tokensBefore':" + tokensBefore);
	}

	/** The stored timestamp {@code second} seconds into 2025. */
	private static String at(int second) {
		return String.format("2025-01-01T00:%02d:%02d.000Z", second / 60, second % 60);
	}

	private static long millis(int second) {
		return 1735689600000L + second * 1000L;
	}

}

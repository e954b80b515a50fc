package dev.arbor.web;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.arbor.AgentWrites;
import dev.arbor.events.HookAnswer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link NavigationApiContract} on the file store, and what only the file store has: a coding agent that appends to
 * the session's file while a navigation waits for its hooks or its summary, which no gate of Arbor's can hold back.
 */
class FileNavigationApiTests extends NavigationApiContract {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Override
	StoredState stored() {
		return StoredState.files(storage);
	}

	/** The agent writes a line under the leaf, as it does when it carries on. */
	private static void agentAppends(String sessionId, String id, String parentId) {
		AgentWrites.append(ApiSessions.file(storage, sessionId),
				AgentWrites.userMessage(id, parentId, "meanwhile, from the agent") + "\n");
	}

	@Test
	void withoutIfMatchANavigationShouldStillMoveWhenTheAgentAppendedWhileTheModelSummarized() {
		Chain chain = chain();
		this.summarizer.answer = entries -> {
			agentAppends(chain.sessionId(), "a9e00001", chain.a2());
			return ScriptedSummarizer.naming(entries);
		};
		JsonNode outcome = ApiSessions.navigate(this.client, chain.sessionId(),
				Map.of("targetId", chain.a1(), "summarize", true));
		JsonNode summary = outcome.get("summaryEntry");
		assertThat(summary.get("parentId").asString()).isEqualTo(chain.a1());
		assertThat(summary.get("summary").asString()).as("of the branch the model was shown")
			.isEqualTo("Summary of " + chain.u2() + "," + chain.a2());
		assertThat(outcome.get("oldLeafId").asString()).as("the leaf it moved from").isEqualTo("a9e00001");
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(summary.get("id").asString());
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).isEqualTo(summary.get("id").asString());
		JsonNode entries = ApiSessions.body(this.client.get().uri("/sessions/{id}/entries", chain.sessionId()).exchange());
		assertThat(entries.get("items").valueStream().map(entry -> entry.get("id").asString()).toList())
			.containsExactly(chain.u1(), chain.a1(), chain.u2(), chain.a2(), "a9e00001", summary.get("id").asString());
	}

	@Test
	void withoutIfMatchANavigationShouldStillMoveWhenTheAgentAppendedWhileAHookWasAsked() {
		Chain chain = chain();
		this.hook.onTree = preparation -> {
			agentAppends(chain.sessionId(), "a9e00002", chain.a2());
			return HookAnswer.NONE;
		};
		JsonNode outcome = ApiSessions.navigate(this.client, chain.sessionId(), Map.of("targetId", chain.u2()));
		assertThat(outcome.get("cancelled").asBoolean()).isFalse();
		assertThat(outcome.get("oldLeafId").asString()).isEqualTo("a9e00002");
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(chain.a1());
		assertThat(outcome.get("editorText").asString()).isEqualTo("Now add a .env file");
		assertThat(outcome.get("context").get("leafId").asString()).isEqualTo(chain.a1());
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).isEqualTo(chain.a1());
		assertThat(this.hook.treeCalls).singleElement()
			.satisfies(preparation -> assertThat(preparation.oldLeafId()).isEqualTo(chain.a2()));
	}

	@Test
	void withIfMatchANavigationShouldBeA412WhenTheAgentAppendedWhileTheModelSummarized() {
		Chain chain = chain();
		this.summarizer.answer = entries -> {
			agentAppends(chain.sessionId(), "a9e00003", chain.a2());
			return ScriptedSummarizer.naming(entries);
		};
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/navigate", chain.sessionId())
			.header(HttpHeaders.IF_MATCH, "\"" + chain.a2() + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", chain.a1(), "summarize", true))
			.exchange(), HttpStatus.PRECONDITION_FAILED, "leaf-moved");
		assertThat(problem.get("leafId").asString()).isEqualTo("a9e00003");
		assertThat(ApiSessions.leaf(this.client, chain.sessionId())).as("no summary, no move").isEqualTo("a9e00003");
		JsonNode entries = ApiSessions.body(this.client.get().uri("/sessions/{id}/entries", chain.sessionId()).exchange());
		assertThat(entries.get("items").valueStream().map(entry -> entry.get("id").asString()).toList())
			.isEqualTo(List.of(chain.u1(), chain.a1(), chain.u2(), chain.a2(), "a9e00003"));
	}

}

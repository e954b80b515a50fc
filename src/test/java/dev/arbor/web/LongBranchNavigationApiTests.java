package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.arbor.events.TreePreparation;
import dev.arbor.session.EntryLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A navigation that leaves thousands of entries behind: its {@code session_before_tree} event stays small, while
 * an in-process hook and a webhook still get every entry left behind (docs/API.md#events-server-sent-events and
 * docs/API.md#hooks-and-webhooks).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Import(ScriptedHook.Registered.class)
class LongBranchNavigationApiTests {

	private static final int LEFT_BEHIND = 3000;

	static final WebhookServer webhook = WebhookServer.start();

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.hooks.webhooks[0].name", () -> "test-webhook");
		registry.add("arbor.hooks.webhooks[0].url", webhook::url);
	}

	@Autowired
	RestTestClient client;

	@Autowired
	ScriptedHook hook;

	@LocalServerPort
	int port;

	@Test
	void navigationLeavingThousandsOfEntriesBehindShouldSendABoundedEventAndEveryEntryToTheHooks() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String question = ApiSessions.appendUser(this.client, sessionId, "Where do we start?");
		List<String> abandoned = ApiSessions.appendUsers(this.client, sessionId, "step", LEFT_BEHIND);

		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			JsonNode outcome = ApiSessions.body(this.client.post()
				.uri("/sessions/{id}/navigate?context=false", sessionId)
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("targetId", question))
				.exchange()
				.expectStatus()
				.isOk());
			assertThat(outcome.get("cancelled").asBoolean()).isFalse();

			JsonNode event = events.until("session_before_tree").get(0).data();
			assertThat(event.toString().getBytes(StandardCharsets.UTF_8)).hasSizeLessThan(2_000);
			assertThat(event.get("targetId").asString()).isEqualTo(question);
			assertThat(event.get("commonAncestorId").asString()).isEqualTo(question);
			assertThat(event.get("oldLeafId").asString()).isEqualTo(abandoned.get(LEFT_BEHIND - 1));
			assertThat(event.get("entriesToSummarizeCount").asInt()).isEqualTo(LEFT_BEHIND);
			assertThat(event.get("firstEntryIdToSummarize").asString()).isEqualTo(abandoned.get(0));
			assertThat(event.get("lastEntryIdToSummarize").asString()).isEqualTo(abandoned.get(LEFT_BEHIND - 1));
			assertThat(strings(event.get("leadingEntryIdsToSummarize")))
				.isEqualTo(abandoned.subList(0, TreePreparation.EVENT_ID_LIMIT));
			assertThat(event.get("entryIdsToSummarizeTruncated").asBoolean()).isTrue();
			assertThat(event.has("entryIdsToSummarize")).isFalse();
		}

		assertThat(this.hook.treeCalls).singleElement()
			.satisfies(preparation -> assertThat(preparation.entriesToSummarize()).extracting(EntryLine::id)
				.isEqualTo(abandoned));
		JsonNode delivered = ApiSessions.json(webhook.nextRequest().body());
		assertThat(strings(delivered.get("preparation").get("entriesToSummarize"), "id")).isEqualTo(abandoned);
		// The whole list, as the event points to it: the old leaf's path after the common ancestor.
		JsonNode path = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}/entries/{entryId}/path", sessionId, abandoned.get(LEFT_BEHIND - 1))
			.exchange()
			.expectStatus()
			.isOk());
		List<String> pathIds = strings(path, "id");
		assertThat(pathIds.subList(pathIds.indexOf(question) + 1, pathIds.size())).isEqualTo(abandoned);
	}

	private static List<String> strings(JsonNode array) {
		List<String> strings = new ArrayList<>();
		array.forEach(element -> strings.add(element.asString()));
		return strings;
	}

	private static List<String> strings(JsonNode objects, String field) {
		List<String> strings = new ArrayList<>();
		objects.forEach(object -> strings.add(object.get(field).asString()));
		return strings;
	}

}

package dev.arbor.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.ArborApplication;
import dev.arbor.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One session's life over real HTTP: the upstream pi v1 fixture is imported, read (tree, path, context in both
 * formats), moved and appended to; then the application is stopped and started again on the same directory and
 * everything is where it was.
 */
class LargeSessionEndToEndTests {

	/** The fixture's session id (its header) and shape (fixtures README). */
	private static final String SESSION_ID = "d703a1a9-1b7b-4fb1-b512-c9738b1fe617";

	private static final int ENTRIES = 1018;

	@TempDir
	Path storage;

	@Test
	void importReadMoveAppendThenRestartShouldFindTheSameLeafAndEntries() throws Exception {
		List<String> pathIds;
		String newLeaf;
		JsonNode context;
		try (ConfigurableApplicationContext app = start()) {
			RestTestClient client = clientOf(app);
			JsonNode session = ApiSessions.body(client.post()
				.uri("/sessions/import")
				.contentType(MediaType.parseMediaType("application/x-ndjson"))
				.body(Files.readAllBytes(Fixtures.path(Fixtures.PI_V1)))
				.exchange()
				.expectStatus()
				.isCreated());
			assertThat(session.get("id").asString()).isEqualTo(SESSION_ID);
			assertThat(session.get("version").asInt()).isEqualTo(3);
			assertThat(session.get("entryCount").asInt()).isEqualTo(ENTRIES);

			JsonNode tree = get(client, "/sessions/{id}/tree");
			assertThat(tree.get("rootIds")).hasSize(1);
			assertThat(tree.get("nodes")).hasSize(ENTRIES);
			List<String> treeIds = new ArrayList<>();
			tree.get("nodes").forEach(node -> treeIds.add(node.get("id").asString()));
			String leaf = tree.get("leafId").asString();
			assertThat(leaf).isEqualTo(treeIds.get(ENTRIES - 1));

			JsonNode path = get(client, "/sessions/{id}/path");
			assertThat(ids(path)).isEqualTo(treeIds); // v1 is one chain in file order

			JsonNode agent = get(client, "/sessions/{id}/context");
			JsonNode llm = get(client, "/sessions/{id}/context?format=llm");
			assertThat(agent.get("leafId").asString()).isEqualTo(leaf);
			assertThat(agent.get("messages")).hasSize(914);
			assertThat(llm.get("messages")).hasSize(914);
			assertThat(agent.get("models").get("default").asString()).isEqualTo("anthropic/claude-sonnet-4-5");
			List<String> roles = new ArrayList<>();
			llm.get("messages").forEach(message -> roles.add(message.get("role").asString()));
			assertThat(roles).containsOnly("user", "assistant", "toolResult");

			String middle = firstAssistantAfter(path, ENTRIES / 2);
			client.put()
				.uri("/sessions/{id}/leaf", SESSION_ID)
				.header(HttpHeaders.IF_MATCH, "\"" + leaf + "\"")
				.contentType(MediaType.APPLICATION_JSON)
				.body("{\"entryId\":\"" + middle + "\"}")
				.exchange()
				.expectStatus()
				.isOk();
			JsonNode appended = ApiSessions.body(client.post()
				.uri("/sessions/{id}/entries", SESSION_ID)
				.header(HttpHeaders.IF_MATCH, "\"" + middle + "\"")
				.contentType(MediaType.APPLICATION_JSON)
				.body("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"Try the other approach\"}}")
				.exchange()
				.expectStatus()
				.isCreated());
			assertThat(appended.get("parentId").asString()).isEqualTo(middle);
			newLeaf = appended.get("id").asString();
			pathIds = ids(get(client, "/sessions/{id}/path"));
			assertThat(pathIds).endsWith(middle, newLeaf);
			context = get(client, "/sessions/{id}/context");
			assertThat(context.get("messages").get(context.get("messages").size() - 1).get("content").asString())
				.isEqualTo("Try the other approach");
		}
		try (ConfigurableApplicationContext app = start()) {
			RestTestClient client = clientOf(app);
			JsonNode session = get(client, "/sessions/{id}");
			assertThat(session.get("leafId").asString()).isEqualTo(newLeaf);
			assertThat(session.get("entryCount").asInt()).isEqualTo(ENTRIES + 1);
			assertThat(ids(get(client, "/sessions/{id}/path"))).isEqualTo(pathIds);
			assertThat(get(client, "/sessions/{id}/context")).isEqualTo(context);
			assertThat(get(client, "/sessions/{id}/tree").get("nodes")).hasSize(ENTRIES + 1);
		}
	}

	private ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(ArborApplication.class)
			.properties("server.port=0", "arbor.storage.dir=" + this.storage)
			.run();
	}

	private static RestTestClient clientOf(ConfigurableApplicationContext app) {
		int port = ((WebServerApplicationContext) app).getWebServer().getPort();
		return RestTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
	}

	private static JsonNode get(RestTestClient client, String uri) {
		return ApiSessions.body(client.get()
			.uri(uri, SESSION_ID)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.exists(HttpHeaders.ETAG));
	}

	private static List<String> ids(JsonNode entries) {
		List<String> ids = new ArrayList<>();
		entries.forEach(entry -> ids.add(entry.get("id").asString()));
		return ids;
	}

	private static String firstAssistantAfter(JsonNode path, int from) {
		for (int i = from; i < path.size(); i++) {
			JsonNode message = path.get(i).get("message");
			if (message != null && "assistant".equals(message.get("role").asString())) {
				return path.get(i).get("id").asString();
			}
		}
		throw new IllegalStateException("No assistant message after " + from);
	}

}

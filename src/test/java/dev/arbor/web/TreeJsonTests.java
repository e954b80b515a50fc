package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.Fixtures;
import dev.arbor.TestSessions;
import dev.arbor.operations.TreeQueries;
import dev.arbor.session.SessionTreeView;
import dev.arbor.session.Timestamps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /sessions/{id}/tree} is written straight from the tree view ({@link TreeJson}); its bytes are exactly
 * those of the application's mapper serializing the {@link TreeResponse} record built from the same view, as the
 * endpoint answered before it streamed: escapes, nulls, field order and all.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class TreeJsonTests {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Autowired
	RestTestClient client;

	@Autowired
	TreeQueries queries;

	@Autowired
	JsonMapper mapper;

	@Test
	void getTreeOfTheOmpTestSessionShouldWriteWhatTheRecordWouldSerializeTo() {
		ApiSessions.importOnce(this.client, TestSessions.SESSION_ID, TestSessions.bytes(TestSessions.OMP_V3));
		assertSameBytes(TestSessions.SESSION_ID);
	}

	@Test
	void getTreeOfTheOmpFixtureShouldWriteWhatTheRecordWouldSerializeTo() {
		ApiSessions.importOnce(this.client, "d703a1a9-1b7b-4fb1-b512-c9738b1fe617", Fixtures.bytes(Fixtures.OMP_V3));
		assertSameBytes("d703a1a9-1b7b-4fb1-b512-c9738b1fe617");
	}

	@Test
	void getTreeWhenIdsTypesAndLabelsNeedEscapesAndTheTreeHasCyclesShouldWriteWhatTheRecordWouldSerializeTo() {
		List<String> entries = new ArrayList<>();
		entries.add(entry("message", "r\\\"oot\\u0001", null, "2025-11-20T23:33:01.550Z"));
		entries.add(entry("typ\\u00e9 \\\"x\\\"", "aaaa0001", "r\\\"oot\\u0001", "2025-11-20T23:33:02.550+02:00"));
		entries.add(entry("message", "noTime01", "aaaa0001", "yesterday"));
		entries.add(entry("message", "farAway1", "aaaa0001", "+12025-01-01T00:00:00.000Z"));
		entries.add(entry("message", "cycle-a", "cycle-b", "2025-11-20T23:33:05.550Z"));
		entries.add(entry("message", "cycle-b", "cycle-a", "2025-11-20T23:33:06.550Z"));
		entries.add(entry("message", "self0001", "self0001", "2025-11-20T23:33:07.550Z"));
		entries.add(entry("message", "aaaa0001", "self0001", "2025-11-20T23:33:08.550Z")); // a later duplicate wins
		for (int i = 0; i < 40; i++) { // more children than are sorted in place, some on the same millisecond
			entries.add(entry("message", "kid" + i, "noTime01", "2025-11-20T23:34:0" + (i % 7) + ".000Z"));
		}
		entries.add("{\"type\":\"label\",\"id\":\"lab00001\",\"parentId\":\"kid39\",\"timestamp\":\"2025-11-20T23:40:00.000Z\","
				+ "\"targetId\":\"r\\\"oot\\u0001\",\"label\":\"\\u00fcber \\\"quoted\\\" \\ud83c\\udf33 \\u2028\"}");
		String sessionId = "tree-json-escapes";
		StringBuilder file = new StringBuilder("{\"type\":\"session\",\"version\":3,\"id\":\"" + sessionId
				+ "\",\"timestamp\":\"2025-11-20T23:33:00.000Z\",\"cwd\":\"/w\"}\n");
		entries.forEach(line -> file.append(line).append('\n'));
		this.client.post()
			.uri("/sessions/import")
			.contentType(MediaType.parseMediaType("application/x-ndjson"))
			.body(file.toString().getBytes(StandardCharsets.UTF_8))
			.exchange()
			.expectStatus()
			.isCreated();
		String body = assertSameBytes(sessionId);
		assertThat(body).contains("\"r\\\"oot\\u0001\"").contains("\"timestamp\":null").contains("\"label\":\"über");
	}

	/** Returns the body. */
	private String assertSameBytes(String sessionId) {
		byte[] body = this.client.get()
			.uri("/sessions/{id}/tree", sessionId)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();
		SessionTreeView view = this.queries.tree(sessionId).value();
		byte[] expected = this.mapper.writeValueAsBytes(asRecord(view));
		assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo(new String(expected, StandardCharsets.UTF_8));
		assertThat(body).isEqualTo(expected);
		return new String(body, StandardCharsets.UTF_8);
	}

	/** The response as the endpoint built it before it streamed. */
	private static TreeResponse asRecord(SessionTreeView view) {
		List<TreeResponse.Node> nodes = new ArrayList<>();
		for (SessionTreeView.Node node : view.nodes()) {
			long millis = node.entry().timestamp();
			nodes.add(new TreeResponse.Node(node.id(), node.parentId(), node.entry().type(),
					(millis != Timestamps.UNKNOWN) ? Timestamps.format(millis) : null, node.label(), node.childIds()));
		}
		return new TreeResponse(view.leafId(), view.rootIds(), nodes);
	}

	private static String entry(String type, String id, String parentId, String timestamp) {
		return "{\"type\":\"" + type + "\",\"id\":\"" + id + "\",\"parentId\":"
				+ ((parentId != null) ? "\"" + parentId + "\"" : "null") + ",\"timestamp\":\"" + timestamp
				+ "\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}";
	}

}

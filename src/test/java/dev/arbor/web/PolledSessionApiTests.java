package dev.arbor.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.arbor.AgentWrites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With watching off ({@code arbor.storage.watch=false}), as where the file system sends no change events (NFS,
 * Docker Desktop bind mounts): the poll alone finds what an agent appends, and the files that appear and go.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class PolledSessionApiTests {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.storage.watch", () -> "false");
		registry.add("arbor.storage.poll-interval", () -> "100ms");
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	@Test
	void linesAnAgentAppendsShouldBeFoundByThePoll() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "hello");
		Path file = ApiSessions.file(storage, sessionId);
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			AgentWrites.append(file, AgentWrites.userMessage("b0110001", first, "one") + "\n"
					+ AgentWrites.userMessage("b0110002", "b0110001", "two") + "\n");
			List<SseClient.Event> received = LiveSessionApiTests.untilLeaf(events, "b0110002");
			assertThat(received).extracting(SseClient.Event::type)
				.containsExactly("entry_appended", "entry_appended", "leaf_changed");
			assertThat(received).allSatisfy(event -> assertThat(event.data().get("origin").asString()).isEqualTo("external"));
		}
	}

	@Test
	void sessionFilesThatAppearAndDisappearShouldBeFoundByThePoll() throws Exception {
		try (SseClient all = SseClient.open(this.port, "/events", null)) {
			Path folder = storage.resolve("--srv-app--");
			Files.createDirectories(folder);
			String id = "0199b000-0000-7000-8000-000000000002";
			Path file = folder.resolve("2026-12-01T11-00-00-000Z_" + id + ".jsonl");
			AgentWrites.append(file, "{\"type\":\"session\",\"version\":3,\"id\":\"" + id
					+ "\",\"timestamp\":\"2026-12-01T11:00:00.000Z\",\"cwd\":\"/srv/app\"}\n");
			SseClient.Event created = LiveSessionApiTests.until(all, "session_created");
			assertThat(created.data().get("sessionId").asString()).isEqualTo(id);
			assertThat(created.data().get("origin").asString()).isEqualTo("external");
			Files.delete(file);
			SseClient.Event deleted = LiveSessionApiTests.until(all, "session_deleted");
			assertThat(deleted.data().get("sessionId").asString()).isEqualTo(id);
		}
	}

}

package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import dev.arbor.events.HookAnswer;
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

/** The actuator as operators use it: health groups with storage, build and commit, Prometheus with Arbor's meters. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Import(ScriptedHook.Registered.class)
class OperationsApiTests {

	@TempDir
	static Path root;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", () -> root.resolve("sessions").toString());
		registry.add("management.endpoint.health.show-components", () -> "always");
	}

	@Autowired
	RestTestClient client;

	@Autowired
	ScriptedHook hook;

	@LocalServerPort
	int port;

	@Test
	void livenessAndReadinessShouldBeUpAndReadinessShouldIncludeTheStorage() {
		this.client.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
		JsonNode readiness = ApiSessions
			.body(this.client.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk());
		assertThat(readiness.get("status").asString()).isEqualTo("UP");
		assertThat(readiness.get("components").get("storage").get("status").asString()).isEqualTo("UP");
	}

	@Test
	void storageShouldGoDownWhenTheDirectoryIsNotWritableAndUpAgainAfter() throws Exception {
		Path sessions = root.resolve("sessions");
		Path aside = root.resolve("sessions-aside");
		Files.move(sessions, aside);
		Files.writeString(sessions, "not a directory"); // root writes anywhere: a file is what stops it
		try {
			this.client.get().uri("/actuator/health/readiness").exchange().expectStatus().isEqualTo(503);
			JsonNode health = ApiSessions
				.body(this.client.get().uri("/actuator/health").exchange().expectStatus().isEqualTo(503));
			assertThat(health.get("components").get("storage").get("status").asString()).isEqualTo("DOWN");
			this.client.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
		}
		finally {
			Files.delete(sessions);
			Files.move(aside, sessions);
		}
		this.client.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
	}

	@Test
	void infoShouldShowTheBuildAndTheCommit() {
		JsonNode info = ApiSessions.body(this.client.get().uri("/actuator/info").exchange().expectStatus().isOk());
		assertThat(info.get("build").get("artifact").asString()).isEqualTo("arbor");
		assertThat(info.get("build").get("version").asString()).isNotBlank();
		assertThat(info.get("git").get("commit").get("id").asString()).matches("[0-9a-f]{7,}");
	}

	@Test
	void prometheusShouldShowArborsMeters() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String u1 = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendAssistant(this.client, sessionId, "two");
		this.hook.onTree = preparation -> HookAnswer.NONE;
		this.client.post()
			.uri("/sessions/{id}/navigate?context=false", sessionId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("targetId", u1))
			.exchange()
			.expectStatus()
			.isOk();
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			String metrics = new String(this.client.get()
				.uri("/actuator/prometheus")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.returnResult()
				.getResponseBody(), StandardCharsets.UTF_8);
			assertThat(metrics).containsPattern("(?m)^arbor_appends_seconds_count [1-9]")
				.containsPattern("(?m)^arbor_entries_appended_total [1-9]")
				.containsPattern("(?m)^arbor_fsync_seconds_count [1-9]")
				.containsPattern("(?m)^arbor_navigations_seconds_count\\{outcome=\"moved\"} [1-9]")
				.containsPattern("(?m)^arbor_sessions_loaded [1-9]")
				.containsPattern("(?m)^arbor_sse_subscribers 1")
				.containsPattern(
						"(?m)^arbor_hook_calls_seconds_count\\{event=\"session_before_tree\",hook=\"scripted\",outcome=\"none\"} [1-9]");
		}
	}

}

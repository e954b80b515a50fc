package dev.arbor.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.arbor.AgentWrites;
import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arbor pointed at a folder that a coding agent writes: what the agent appends (without a lock, a line per write
 * or several) reaches the API and the event streams as it happens, by watching the folder (polling is off here, to
 * show the watch alone does it; see {@link PolledSessionApiTests}).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class LiveSessionApiTests {

	private static final Duration GRACE = Duration.ofMillis(1500);

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.storage.poll-interval", () -> "0");
		registry.add("arbor.storage.torn-tail-grace", () -> GRACE.toMillis() + "ms");
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	@Test
	void linesAnAgentAppendsShouldReachTheSessionStreamOnceEachInFileOrder() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "hello");
		Path file = ApiSessions.file(storage, sessionId);
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			AgentWrites.append(file, AgentWrites.userMessage("a9e00001", first, "one") + "\n");
			AgentWrites.append(file, AgentWrites.userMessage("a9e00002", "a9e00001", "two") + "\n"
					+ AgentWrites.userMessage("a9e00003", "a9e00002", "three") + "\n"); // one write, two lines
			List<SseClient.Event> received = untilLeaf(events, "a9e00003");
			assertThat(received).filteredOn(event -> event.type().equals("entry_appended"))
				.extracting(event -> event.data().get("entry").get("id").asString())
				.containsExactly("a9e00001", "a9e00002", "a9e00003");
			assertThat(received).allSatisfy(event -> assertThat(event.data().get("origin").asString()).isEqualTo("external"));
			assertThat(events.drain(Duration.ofMillis(300))).as("nothing twice").isEmpty();
		}
		JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange());
		assertThat(session.get("entryCount").asInt()).isEqualTo(4);
		assertThat(session.get("leafId").asString()).isEqualTo("a9e00003");
		JsonNode page = ApiSessions.body(this.client.get().uri("/sessions/{id}/entries", sessionId).exchange());
		assertThat(page.get("items").valueStream().map(entry -> entry.get("id").asString()))
			.containsExactly(first, "a9e00001", "a9e00002", "a9e00003");
	}

	@Test
	void anIfMatchThatAnAgentsAppendMadeStaleShouldAnswer412AndWriteNothing() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "hello");
		Path file = ApiSessions.file(storage, sessionId);
		AgentWrites.append(file, AgentWrites.userMessage("a9e00011", first, "meanwhile") + "\n");
		byte[] before = Files.readAllBytes(file);
		ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"stale\"}}")
			.exchange(), HttpStatus.PRECONDITION_FAILED, "leaf-moved");
		assertThat(Files.readAllBytes(file)).isEqualTo(before);
		this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.header(HttpHeaders.IF_MATCH, "\"a9e00011\"")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"fresh\"}}")
			.exchange()
			.expectStatus()
			.isCreated();
	}

	@Test
	void aLineWrittenInTwoPartsShouldBeAnnouncedOnceFinishedAndNeedNoRepair() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "hello");
		Path file = ApiSessions.file(storage, sessionId);
		String line = AgentWrites.userMessage("a9e00021", first, "slowly");
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			AgentWrites.append(file, line.substring(0, 50));
			assertThat(events.drain(Duration.ofMillis(300))).as("nothing to announce yet").isEmpty();
			JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange());
			assertThat(session.get("malformedLines").asInt()).as("a write in progress is not damage").isZero();
			assertThat(session.get("entryCount").asInt()).isEqualTo(1);
			AgentWrites.append(file, line.substring(50) + "\n");
			assertThat(untilLeaf(events, "a9e00021")).extracting(SseClient.Event::type)
				.containsExactly("entry_appended", "leaf_changed");
		}
		ApiSessions.appendUser(this.client, sessionId, "after it");
		assertThat(backups(file)).isEmpty();
		assertThat(Files.readAllLines(file)).hasSize(4).contains(line);
	}

	@Test
	void aLineLeftUnfinishedPastTheGracePeriodShouldCountAsDamageAndBeRepairedWithABackup() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, sessionId, "hello");
		Path file = ApiSessions.file(storage, sessionId);
		AgentWrites.append(file, "{\"type\":\"message\",\"id\":\"crash");
		byte[] torn = Files.readAllBytes(file);
		Thread.sleep(GRACE.toMillis() + 300);
		JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange());
		assertThat(session.get("malformedLines").asInt()).isEqualTo(1);
		String mine = ApiSessions.appendUser(this.client, sessionId, "after the crash");
		List<String> lines = Files.readAllLines(file);
		assertThat(lines).hasSize(3);
		assertThat(Json.MAPPER.readTree(lines.get(2)).get("id").asString()).isEqualTo(mine);
		assertThat(backups(file)).singleElement().satisfies(backup -> assertThat(Files.readAllBytes(backup)).isEqualTo(torn));
	}

	@Test
	void aFileThatAnotherProcessRewroteShouldBeAnnouncedAsReloaded() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendUser(this.client, sessionId, "two");
		Path file = ApiSessions.file(storage, sessionId);
		List<String> lines = Files.readAllLines(file);
		String rewritten = lines.get(0) + "\n" + lines.get(1) + "\n"
				+ AgentWrites.userMessage("a9e00031", first, "instead") + "\n";
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			Path temp = file.resolveSibling("rewrite.tmp");
			Files.writeString(temp, rewritten);
			Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			SseClient.Event reloaded = events.until("session_reloaded").get(0);
			assertThat(reloaded.data().get("entryCount").asInt()).isEqualTo(2);
			assertThat(reloaded.data().get("leafId").asString()).isEqualTo("a9e00031");
			assertThat(reloaded.data().get("origin").asString()).isEqualTo("external");
		}
		String mine = ApiSessions.appendUser(this.client, sessionId, "three");
		assertThat(Files.readAllLines(file)).hasSize(4).startsWith(rewritten.split("\n"));
		assertThat(Json.MAPPER.readTree(Files.readAllLines(file).get(3)).get("parentId").asString())
			.isEqualTo("a9e00031");
		assertThat(mine).isNotBlank();
	}

	@Test
	void sessionFilesThatAppearAndDisappearShouldReachTheStreamOfAllSessions() throws Exception {
		try (SseClient all = SseClient.open(this.port, "/events", null)) {
			Path folder = storage.resolve("--home-me-project--");
			Files.createDirectories(folder);
			Path file = folder.resolve("2026-12-01T10-00-00-000Z_0199a000-0000-7000-8000-000000000001.jsonl");
			AgentWrites.append(file, "{\"type\":\"session\",\"version\":3,\"id\":\"0199a000-0000-7000-8000-000000000001\","
					+ "\"timestamp\":\"2026-12-01T10:00:00.000Z\",\"cwd\":\"/home/me/project\"}\n"
					+ AgentWrites.userMessage("a9e00041", null, "hi") + "\n");
			SseClient.Event created = until(all, "session_created");
			assertThat(created.data().get("sessionId").asString()).isEqualTo("0199a000-0000-7000-8000-000000000001");
			assertThat(created.data().get("origin").asString()).isEqualTo("external");
			assertThat(created.data().get("cwd").asString()).isEqualTo("/home/me/project");
			JsonNode listed = ApiSessions.body(this.client.get().uri("/sessions?cwd=/home/me/project").exchange());
			assertThat(listed.get("items")).singleElement()
				.satisfies(session -> assertThat(session.get("entryCount").asInt()).isEqualTo(1));
			Files.delete(file);
			SseClient.Event deleted = until(all, "session_deleted");
			assertThat(deleted.data().get("sessionId").asString()).isEqualTo("0199a000-0000-7000-8000-000000000001");
			assertThat(deleted.data().get("origin").asString()).isEqualTo("external");
			this.client.get()
				.uri("/sessions/{id}", "0199a000-0000-7000-8000-000000000001")
				.exchange()
				.expectStatus()
				.isNotFound();
		}
	}

	@Test
	void aFileThatAnotherProcessMovedShouldBeAnnouncedOnceAsMovedAndKeepItsStreamAndLeaf() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		ApiSessions.appendUser(this.client, sessionId, "two");
		this.client.put().uri("/sessions/{id}/leaf", sessionId).body(Map.of("entryId", first)).exchange()
			.expectStatus().isOk();
		Path file = ApiSessions.file(storage, sessionId);
		Path moved = Files.createDirectories(storage.resolve("--moved--")).resolve(file.getFileName());
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
			Files.move(file, moved, StandardCopyOption.ATOMIC_MOVE);
			List<SseClient.Event> received = events.until("session_moved");
			assertThat(received).extracting(SseClient.Event::type).containsExactly("session_moved");
			SseClient.Event event = received.get(0);
			assertThat(event.data().get("file").asString()).isEqualTo("--moved--/" + file.getFileName());
			assertThat(event.data().get("oldFile").asString()).as("where it was created: the folder of its cwd /work")
				.isEqualTo("--work--/" + file.getFileName());
			assertThat(event.data().get("origin").asString()).isEqualTo("external");
			assertThat(ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange()).get("leafId").asString())
				.as("the leaf survived").isEqualTo(first);
			AgentWrites.append(moved, AgentWrites.userMessage("a9e00051", first, "after the move") + "\n");
			assertThat(untilLeaf(events, "a9e00051")).extracting(SseClient.Event::type)
				.as("the same stream goes on, nothing deleted or created")
				.containsExactly("entry_appended", "leaf_changed");
		}
		JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange());
		assertThat(session.get("entryCount").asInt()).isEqualTo(3);
		assertThat(file.resolveSibling(file.getFileName() + ".leaf")).as("no sidecar left behind").doesNotExist();
	}

	/** The events up to the {@code leaf_changed} that moves the leaf to the entry. */
	static List<SseClient.Event> untilLeaf(SseClient events, String leafId) throws InterruptedException {
		List<SseClient.Event> received = new ArrayList<>();
		SseClient.Event event;
		do {
			event = events.next();
			received.add(event);
		}
		while (!(event.type().equals("leaf_changed") && leafId.equals(event.data().get("leafId").asString())));
		return received;
	}

	/** The first event of the type, skipping others (the stream of all sessions carries other tests' events too). */
	static SseClient.Event until(SseClient events, String type) throws InterruptedException {
		List<SseClient.Event> received = events.until(type);
		return received.get(received.size() - 1);
	}

	/** The backups of one session file, kept next to it. */
	static List<Path> backups(Path sessionFile) throws IOException {
		String name = sessionFile.getFileName().toString();
		try (Stream<Path> files = Files.list(sessionFile.getParent())) {
			return files.filter(file -> file.getFileName().toString().startsWith(name))
				.filter(file -> file.getFileName().toString().endsWith(".bak"))
				.toList();
		}
	}

}

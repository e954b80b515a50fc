package dev.arbor.web;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionFileReader;
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
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent in a process of its own appends to a session, as pi and oh-my-pi do (no lock; small lines, lines over 64
 * KiB, several lines in one write, a line in two writes with a pause between), while 8 HTTP clients append to the same
 * session through Arbor, with its default settings. Afterwards every line of both writers is in the file exactly
 * once and parses, the file read again gives the tree Arbor serves, and a client of the session's event stream saw
 * every line of the agent exactly once, in file order. Rounds are random from a seed ({@code -Darbor.live.seed=}
 * repeats one run).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class AgentBesideArborTests {

	private static final int ROUNDS = 20;

	private static final int CLIENTS = 8;

	private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@TempDir
	static Path storage;

	@TempDir
	Path work;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	@Test
	void everyLineOfBothWritersShouldBeInTheFileOnceAndAnnouncedOnceInFileOrder() throws Exception {
		long seed = Long.getLong("arbor.live.seed", System.nanoTime());
		System.out.println("AgentBesideArborTests: seed " + seed);
		Random random = new Random(seed);
		ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
		int agentLines = 0;
		int arborEntries = 0;
		try (AgentProcess agent = AgentProcess.start(this.work.resolve("agent.log"))) {
			for (int round = 1; round <= ROUNDS; round++) {
				String context = "seed " + seed + ", round " + round;
				String sessionId = ApiSessions.create(this.client);
				ApiSessions.appendAssistant(this.client, sessionId, "ready"); // the agent writes after one
				Path file = ApiSessions.file(storage, sessionId);
				try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events", null)) {
					List<Future<List<String>>> appending = new ArrayList<>();
					for (int c = 0; c < CLIENTS; c++) {
						long clientSeed = random.nextLong();
						appending.add(clients.submit(() -> appendThroughArbor(sessionId, new Random(clientSeed))));
					}
					List<String> fromAgent = agent.round(file, random.nextLong(), 10 + random.nextInt(30));
					List<String> fromArbor = new ArrayList<>();
					for (Future<List<String>> client : appending) {
						fromArbor.addAll(client.get(120, TimeUnit.SECONDS));
					}
					agentLines += fromAgent.size();
					arborEntries += fromArbor.size();
					List<String> fileOrder = assertFile(file, fromAgent, fromArbor, context);
					assertServedEqualsFile(sessionId, file, context);
					List<String> announced = announcedFromOutside(events, fromAgent.size());
					assertThat(announced).as(context + ": the agent's entries announced once each, in file order")
						.isEqualTo(fileOrder.stream().filter(fromAgent::contains).toList());
				}
			}
		}
		finally {
			clients.shutdownNow();
		}
		System.out.printf("AgentBesideArborTests: %d rounds, %d lines of the agent, %d entries through Arbor%n", ROUNDS,
				agentLines, arborEntries);
	}

	/** Appends single entries and small batches, some over 64 KiB; returns the ids acknowledged, in order. */
	private List<String> appendThroughArbor(String sessionId, Random random) throws Exception {
		List<String> ids = new ArrayList<>();
		int requests = 3 + random.nextInt(6);
		for (int r = 0; r < requests; r++) {
			int count = (random.nextInt(4) == 0) ? 2 + random.nextInt(3) : 1;
			List<String> drafts = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				int size = (random.nextInt(12) == 0) ? 65 * 1024 + random.nextInt(8 * 1024) : random.nextInt(400);
				drafts.add("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":"
						+ Json.quote("arbor " + "z".repeat(size)) + "}}");
			}
			String body = (count == 1) ? drafts.get(0) : "[" + String.join(",", drafts) + "]";
			HttpResponse<String> response = HTTP.send(
					HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/sessions/" + sessionId + "/entries"))
						.header("Content-Type", "application/json")
						.POST(HttpRequest.BodyPublishers.ofString(body))
						.build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
			JsonNode stored = Json.MAPPER.readTree(response.body());
			if (stored.isArray()) {
				stored.valueStream().forEach(entry -> ids.add(entry.get("id").asString()));
			}
			else {
				ids.add(stored.get("id").asString());
			}
		}
		return ids;
	}

	/** Every line parses, each writer's lines are there exactly once, and nothing else; returns the ids in file order. */
	private static List<String> assertFile(Path file, List<String> fromAgent, List<String> fromArbor, String context)
			throws Exception {
		List<String> lines = Files.readAllLines(file);
		assertThat(Files.readString(file)).as(context).endsWith("\n");
		List<String> ids = new ArrayList<>();
		for (String line : lines.subList(1, lines.size())) {
			ids.add(Json.MAPPER.readTree(line).get("id").asString()); // throws for a torn or interleaved line
		}
		Map<String, Integer> counts = new HashMap<>();
		ids.forEach(id -> counts.merge(id, 1, Integer::sum));
		assertThat(counts.values()).as(context + ": no line twice").allMatch(count -> count == 1);
		List<String> expected = new ArrayList<>(fromAgent);
		expected.addAll(fromArbor);
		assertThat(ids).as(context + ": every line of both writers, and only those").hasSize(1 + expected.size())
			.containsAll(expected);
		List<String> agentOrder = ids.stream().filter(fromAgent::contains).toList();
		assertThat(agentOrder).as(context + ": the agent's lines in the order it wrote them").isEqualTo(fromAgent);
		return Collections.unmodifiableList(ids);
	}

	/** The entries, the leaf and the entry count Arbor serves are what reading the file again gives. */
	private void assertServedEqualsFile(String sessionId, Path file, String context) throws Exception {
		LoadedSession reloaded = SessionFileReader.read(file);
		assertThat(reloaded.malformedLines()).as(context).isEmpty();
		List<String> served = new ArrayList<>();
		String cursor = null;
		do {
			String uri = "/sessions/" + sessionId + "/entries?limit=500" + ((cursor != null) ? "&after=" + cursor : "");
			JsonNode page = ApiSessions.body(this.client.get().uri(uri).exchange());
			page.get("items").valueStream().forEach(entry -> served.add(entry.get("id").asString()));
			cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
		}
		while (cursor != null);
		assertThat(served).as(context + ": the served entries are the file's, in file order")
			.isEqualTo(reloaded.tree().getEntries().stream().map(EntryLine::id).toList());
		JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", sessionId).exchange());
		assertThat(session.get("leafId").asString()).as(context).isEqualTo(reloaded.tree().leafId());
		assertThat(session.get("entryCount").asInt()).as(context).isEqualTo(reloaded.tree().size());
		assertThat(session.get("malformedLines").asInt()).as(context).isZero();
	}

	/** The ids of the entries announced as appended from outside, once that many arrived (and a little longer). */
	private static List<String> announcedFromOutside(SseClient events, int expected) throws InterruptedException {
		List<String> ids = new ArrayList<>();
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (System.nanoTime() < deadline) {
			List<SseClient.Event> batch = events.drain(Duration.ofMillis((ids.size() < expected) ? 500 : 300));
			for (SseClient.Event event : batch) {
				if (event.type().equals("entry_appended") && event.data().get("origin").asString().equals("external")) {
					ids.add(event.data().get("entry").get("id").asString());
				}
			}
			if (ids.size() >= expected && batch.isEmpty()) {
				break;
			}
		}
		return ids;
	}

}

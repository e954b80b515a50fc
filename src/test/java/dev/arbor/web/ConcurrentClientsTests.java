package dev.arbor.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
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
 * Clients racing on one session with {@code If-Match} over real HTTP (docs/API.md#versions-etag-and-if-match;
 * docs/SESSION-FORMAT.md#durability-and-concurrency): each reads the leaf and appends under it; exactly one append per
 * leaf wins, the others get 412, and the file holds exactly the acknowledged entries as one chain.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class ConcurrentClientsTests {

	static final int CLIENTS = 16;

	static final int ATTEMPTS = 30;

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	@Test
	void appendWhenSixteenClientsRaceWithIfMatchShouldStoreExactlyTheAcknowledgedEntriesAsOneChain() throws Exception {
		String sessionId = ApiSessions.create(this.client);
		String start = ApiSessions.appendUser(this.client, sessionId, "before the race");
		List<Outcome> outcomes = race(sessionId);

		assertThat(outcomes).hasSize(CLIENTS * ATTEMPTS);
		assertThat(outcomes).allSatisfy(outcome -> {
			assertThat(outcome.leafStatus()).as(outcome.toString()).isEqualTo(200);
			assertThat(outcome.status()).as(outcome.toString()).isIn(201, 412);
		});
		List<Outcome> appended = outcomes.stream().filter(outcome -> outcome.status() == 201).toList();
		List<Outcome> refused = outcomes.stream().filter(outcome -> outcome.status() == 412).toList();
		assertThat(appended).as("successes").hasSizeGreaterThanOrEqualTo(CLIENTS);
		assertThat(refused).as("412s: the clients really raced").isNotEmpty();
		// Each acknowledged entry is a child of the leaf its client saw; each refusal names the leaf as it was.
		assertThat(appended).allSatisfy(outcome -> {
			JsonNode entry = Json.MAPPER.readTree(outcome.body());
			assertThat(entry.get("parentId").asString()).as(outcome.toString()).isEqualTo(outcome.expectedLeaf());
			assertThat(outcome.etag()).as(outcome.toString()).isEqualTo("\"" + entry.get("id").asString() + "\"");
		});
		assertThat(refused).allSatisfy(outcome -> {
			assertThat(outcome.contentType()).as(outcome.toString()).startsWith("application/problem+json");
			assertThat(Json.MAPPER.readTree(outcome.body()).get("type").asString()).as(outcome.toString())
				.isEqualTo("https://arbor.dev/problems/leaf-moved");
			assertThat(outcome.etag()).as(outcome.toString()).isNotNull().isNotEqualTo("\"" + outcome.expectedLeaf() + "\"");
		});
		Set<String> acknowledged = new HashSet<>();
		appended.forEach(outcome -> acknowledged.add(Json.MAPPER.readTree(outcome.body()).get("id").asString()));
		assertThat(acknowledged).as("no id acknowledged twice").hasSameSizeAs(appended);

		// The file: the header, the entry from before the race, then exactly the acknowledged ones, one chain.
		List<String> lines = Files.readAllLines(ApiSessions.file(storage, sessionId), StandardCharsets.UTF_8);
		assertThat(Json.MAPPER.readTree(lines.get(0)).get("type").asString()).isEqualTo("session");
		List<JsonNode> entries = lines.subList(1, lines.size()).stream().map(Json.MAPPER::readTree).toList();
		assertThat(entries.get(0).get("id").asString()).isEqualTo(start);
		List<JsonNode> raced = entries.subList(1, entries.size());
		assertThat(raced.stream().map(entry -> entry.get("id").asString()).toList())
			.containsExactlyInAnyOrderElementsOf(acknowledged);
		String parent = start;
		for (JsonNode entry : raced) {
			assertThat(entry.get("parentId").asString()).as(entry.toString()).isEqualTo(parent);
			parent = entry.get("id").asString();
		}
		List<String> fileIds = entries.stream().map(entry -> entry.get("id").asString()).toList();

		// The API agrees: the path to the leaf is the chain, the leaf its last entry.
		JsonNode path = ApiSessions.body(this.client.get().uri("/sessions/{id}/path", sessionId).exchange().expectStatus().isOk());
		List<String> pathIds = new ArrayList<>();
		path.forEach(entry -> pathIds.add(entry.get("id").asString()));
		assertThat(pathIds).isEqualTo(fileIds);
		assertThat(ApiSessions.body(this.client.get().uri("/sessions/{id}/leaf", sessionId).exchange())
			.get("leafId")
			.asString()).isEqualTo(parent);
	}

	/** Every client reads the leaf and appends under it, {@link #ATTEMPTS} times, all starting together. */
	private List<Outcome> race(String sessionId) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
		try {
			CyclicBarrier together = new CyclicBarrier(CLIENTS);
			List<Future<List<Outcome>>> clients = new ArrayList<>();
			for (int i = 0; i < CLIENTS; i++) {
				int number = i;
				clients.add(pool.submit(() -> attempts(sessionId, number, together)));
			}
			List<Outcome> outcomes = new ArrayList<>();
			for (Future<List<Outcome>> client : clients) {
				outcomes.addAll(client.get(60, TimeUnit.SECONDS));
			}
			return outcomes;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private List<Outcome> attempts(String sessionId, int clientNumber, CyclicBarrier together) throws Exception {
		HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		URI leaf = URI.create("http://localhost:" + this.port + "/sessions/" + sessionId + "/leaf");
		URI entries = URI.create("http://localhost:" + this.port + "/sessions/" + sessionId + "/entries");
		List<Outcome> outcomes = new ArrayList<>();
		together.await(10, TimeUnit.SECONDS);
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			HttpResponse<String> read = send(http, HttpRequest.newBuilder(leaf).GET());
			String etag = read.headers().firstValue("ETag").orElse(null);
			String expectedLeaf = (etag != null) ? etag.substring(1, etag.length() - 1) : null;
			String draft = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"client " + clientNumber
					+ " attempt " + attempt + "\"}}";
			HttpRequest.Builder append = HttpRequest.newBuilder(entries)
				.header("Content-Type", "application/json")
				.POST(BodyPublishers.ofString(draft));
			if (etag != null) {
				append.header("If-Match", etag);
			}
			HttpResponse<String> written = send(http, append);
			outcomes.add(new Outcome(clientNumber, attempt, read.statusCode(), expectedLeaf, written.statusCode(),
					written.headers().firstValue("ETag").orElse(null),
					written.headers().firstValue("Content-Type").orElse(""), written.body()));
		}
		return outcomes;
	}

	private static HttpResponse<String> send(HttpClient http, HttpRequest.Builder request)
			throws IOException, InterruptedException {
		return http.send(request.timeout(Duration.ofSeconds(30)).build(), BodyHandlers.ofString());
	}

	/** One client's attempt: what it read, what it sent as {@code If-Match}, and the answer. */
	record Outcome(int client, int attempt, int leafStatus, @Nullable String expectedLeaf, int status,
			@Nullable String etag, String contentType, String body) {
	}

}

package dev.arbor.web;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.arbor.ArborApplication;
import dev.arbor.storage.postgres.RequiresPostgres;
import dev.arbor.storage.postgres.SessionLocks;
import dev.arbor.storage.postgres.TestDatabases;
import dev.arbor.summary.BranchSummary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two replicas of Arbor, two application contexts on their own ports, over one PostgreSQL database: what one writes,
 * the other serves and announces; If-Match, navigations and aborts hold across them; replay works from either. A third,
 * in a process of its own, is killed while clients append to it.
 */
@RequiresPostgres
class ReplicasTests {

	static TestDatabases.Database database;

	static ConfigurableApplicationContext a;

	static ConfigurableApplicationContext b;

	static RestTestClient onA;

	static RestTestClient onB;

	@BeforeAll
	static void startReplicas() {
		database = TestDatabases.create();
		a = start(database);
		b = start(database);
		onA = client(a);
		onB = client(b);
	}

	@AfterAll
	static void stopReplicas() {
		if (a != null) {
			a.close();
		}
		if (b != null) {
			b.close();
		}
	}

	@BeforeEach
	void resetSummarizers() {
		a.getBean(ScriptedSummarizer.class).reset();
		b.getBean(ScriptedSummarizer.class).reset();
	}

	static ConfigurableApplicationContext start(TestDatabases.Database database) {
		return new SpringApplicationBuilder(ArborApplication.class, ScriptedSummarizer.Registered.class)
			.properties(replicaProperties(database, 0))
			.run();
	}

	static String[] replicaProperties(TestDatabases.Database database, int port) {
		return new String[] { "server.port=" + port, "arbor.storage.type=postgres",
				"spring.datasource.url=" + database.url(), "spring.datasource.username=" + database.user(),
				"spring.datasource.password=" + database.password(), "logging.level.root=WARN" };
	}

	static int port(ConfigurableApplicationContext replica) {
		return ((WebServerApplicationContext) replica).getWebServer().getPort();
	}

	static RestTestClient client(ConfigurableApplicationContext replica) {
		return RestTestClient.bindToServer().baseUrl("http://localhost:" + port(replica)).build();
	}

	@Test
	void anEntryAppendedOnAShouldBeReadAndAnnouncedOnBWithinASecond() throws Exception {
		String sessionId = ApiSessions.create(onA);
		ApiSessions.appendUser(onA, sessionId, "first, so that B has the session cached");
		ApiSessions.leaf(onB, sessionId);
		try (SseClient events = SseClient.open(port(b), "/sessions/" + sessionId + "/events", null)) {
			long start = System.nanoTime();
			String id = ApiSessions.appendUser(onA, sessionId, "written on A");
			assertThat(ApiSessions.leaf(onB, sessionId)).as("B reads what A acknowledged").isEqualTo(id);
			SseClient.Event appended = events.next();
			long millis = (System.nanoTime() - start) / 1_000_000;
			assertThat(appended.type()).isEqualTo("entry_appended");
			assertThat(appended.data().get("entry").get("id").asString()).isEqualTo(id);
			assertThat(millis).as("announced on B within a second").isLessThan(1_000);
			assertThat(events.next().type()).isEqualTo("leaf_changed");
		}
	}

	@Test
	void sixteenClientsOnBothReplicasShouldAppendOneChainWithIfMatch() throws Exception {
		String sessionId = ApiSessions.create(onA);
		Set<String> acknowledged = ConcurrentHashMap.newKeySet();
		List<Integer> refused = Collections.synchronizedList(new ArrayList<>());
		ExecutorService clients = Executors.newFixedThreadPool(16);
		List<Future<?>> running = new ArrayList<>();
		for (int c = 0; c < 16; c++) {
			RestTestClient client = (c % 2 == 0) ? onA : onB;
			int n = c;
			running.add(clients.submit(() -> {
				for (int i = 0; i < 5; i++) {
					String etag = client.get()
						.uri("/sessions/{id}/leaf", sessionId)
						.exchange()
						.returnResult(byte[].class)
						.getResponseHeaders()
						.getETag();
					var result = client.post()
						.uri("/sessions/{id}/entries", sessionId)
						.contentType(MediaType.APPLICATION_JSON)
						.header(HttpHeaders.IF_MATCH, etag)
						.body("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"client " + n + " try " + i
								+ "\"}}")
						.exchange()
						.returnResult(byte[].class);
					int status = result.getStatus().value();
					if (status == 201) {
						acknowledged.add(ApiSessions.json(result.getResponseBody()).get("id").asString());
					}
					else {
						assertThat(status).as("each append is 201 or 412").isEqualTo(412);
						refused.add(status);
					}
				}
				return null;
			}));
		}
		for (Future<?> client : running) {
			client.get(60, TimeUnit.SECONDS);
		}
		clients.shutdown();
		assertThat(acknowledged.size() + refused.size()).isEqualTo(80);
		JsonNode entries = ApiSessions
			.body(onB.get().uri("/sessions/{id}/entries?limit=1000", sessionId).exchange());
		List<String> stored = new ArrayList<>();
		String parent = null;
		for (JsonNode entry : entries.get("items")) {
			assertThat(entry.get("parentId").isNull() ? null : entry.get("parentId").asString())
				.as("every entry hangs under the one before: one chain").isEqualTo(parent);
			parent = entry.get("id").asString();
			stored.add(parent);
		}
		assertThat(new HashSet<>(stored)).as("exactly the acknowledged entries").isEqualTo(acknowledged);
		assertThat(stored).hasSameSizeAs(acknowledged);
	}

	@Test
	void aNavigationOnAShouldHoldWritesOnBUntilItIsDone() throws Exception {
		String sessionId = ApiSessions.create(onA);
		String u1 = ApiSessions.appendUser(onA, sessionId, "one");
		ApiSessions.appendUser(onA, sessionId, "two");
		CompletableFuture<BranchSummary> stalled = new CompletableFuture<>();
		ScriptedSummarizer summarizer = a.getBean(ScriptedSummarizer.class);
		summarizer.answer = entries -> stalled;
		CompletableFuture<JsonNode> navigation = CompletableFuture
			.supplyAsync(() -> ApiSessions.navigate(onA, sessionId, Map.of("targetId", u1, "summarize", true)));
		awaitCall(summarizer);
		CompletableFuture<String> write = CompletableFuture
			.supplyAsync(() -> ApiSessions.appendUser(onB, sessionId, "written on B meanwhile"));
		Thread.sleep(500);
		assertThat(write).as("B's write waits for A's navigation").isNotDone();
		stalled.complete(new BranchSummary("Summary of two", null));
		JsonNode outcome = navigation.get(10, TimeUnit.SECONDS);
		String summaryId = outcome.get("summaryEntry").get("id").asString();
		String written = write.get(10, TimeUnit.SECONDS);
		JsonNode entry = ApiSessions.body(onA.get().uri("/sessions/{id}/entries/{e}", sessionId, written).exchange())
			.get("entry");
		assertThat(entry.get("parentId").asString()).as("B's entry follows the navigation's").isEqualTo(summaryId);
	}

	@Test
	void anAbortSentToBShouldStopANavigationOnA() throws Exception {
		String sessionId = ApiSessions.create(onA);
		String u1 = ApiSessions.appendUser(onA, sessionId, "one");
		String u2 = ApiSessions.appendUser(onA, sessionId, "two");
		CompletableFuture<BranchSummary> stalled = new CompletableFuture<>();
		ScriptedSummarizer summarizer = a.getBean(ScriptedSummarizer.class);
		summarizer.answer = entries -> stalled;
		CompletableFuture<JsonNode> navigation = CompletableFuture.supplyAsync(() -> ApiSessions.navigate(onA, sessionId,
				Map.of("targetId", u1, "summarize", true, "requestId", "across")));
		awaitCall(summarizer);
		onB.delete().uri("/sessions/{id}/navigations/{r}", sessionId, "across").exchange().expectStatus().isAccepted();
		JsonNode outcome = navigation.get(10, TimeUnit.SECONDS);
		assertThat(outcome.get("aborted").asBoolean()).isTrue();
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(u2);
		assertThat(stalled).as("the model call is cancelled").isCancelled();
		assertThat(ApiSessions.leaf(onB, sessionId)).isEqualTo(u2);
		ApiSessions.problem(onB.delete().uri("/sessions/{id}/navigations/{r}", sessionId, "across").exchange(),
				HttpStatus.NOT_FOUND, "navigation-not-found");
	}

	/**
	 * The navigation on A has committed to apply its summary, and waits for the session's advisory lock, which the
	 * test holds: an abort sent to B now is too late, and says so as it does on one instance.
	 */
	@Test
	void anAbortSentToBWhileTheNavigationOnAAppliesShouldBeA404AndTheNavigationShouldApply() throws Exception {
		String sessionId = ApiSessions.create(onA);
		String u1 = ApiSessions.appendUser(onA, sessionId, "one");
		ApiSessions.appendUser(onA, sessionId, "two");
		CompletableFuture<BranchSummary> stalled = new CompletableFuture<>();
		ScriptedSummarizer summarizer = a.getBean(ScriptedSummarizer.class);
		summarizer.answer = entries -> stalled;
		CompletableFuture<JsonNode> navigation = CompletableFuture.supplyAsync(() -> ApiSessions.navigate(onA, sessionId,
				Map.of("targetId", u1, "summarize", true, "requestId", "late")));
		awaitCall(summarizer);
		try (Connection connection = DriverManager.getConnection(database.url(), database.user(),
				database.password())) {
			connection.setAutoCommit(false);
			try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(?, hashtext(?))")) {
				lock.setInt(1, SessionLocks.LOCK_SPACE);
				lock.setString(2, sessionId);
				lock.execute();
			}
			stalled.complete(new BranchSummary("Summary of two", null));
			awaitLockWaiter(connection);
			ApiSessions.problem(onB.delete().uri("/sessions/{id}/navigations/{r}", sessionId, "late").exchange(),
					HttpStatus.NOT_FOUND, "navigation-not-found");
			connection.rollback();
		}
		JsonNode outcome = navigation.get(10, TimeUnit.SECONDS);
		assertThat(outcome.get("aborted").asBoolean()).isFalse();
		assertThat(outcome.get("summaryEntry").get("type").asString()).isEqualTo("branch_summary");
		assertThat(ApiSessions.leaf(onB, sessionId)).isEqualTo(outcome.get("newLeafId").asString());
	}

	/** Until a transaction of the test database waits for an advisory lock. */
	private static void awaitLockWaiter(Connection connection) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		try (PreparedStatement waiting = connection.prepareStatement("""
				SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
					AND database = (SELECT oid FROM pg_database WHERE datname = current_database())""")) {
			while (true) {
				try (ResultSet rows = waiting.executeQuery()) {
					rows.next();
					if (rows.getLong(1) > 0) {
						return;
					}
				}
				assertThat(System.nanoTime() - deadline).as("the navigation applies within 10 s").isNegative();
				Thread.sleep(10);
			}
		}
	}

	@Test
	void aClientShouldReplayFromBWhatItMissedOfA() throws Exception {
		String sessionId = ApiSessions.create(onA);
		List<SseClient.Event> seen;
		try (SseClient events = SseClient.open(port(a), "/sessions/" + sessionId + "/events", null)) {
			ApiSessions.appendUser(onA, sessionId, "one");
			seen = events.until("leaf_changed");
		}
		String two = ApiSessions.appendUser(onA, sessionId, "two");
		String three = ApiSessions.appendUser(onA, sessionId, "three");
		try (SseClient replay = SseClient.open(port(b), "/sessions/" + sessionId + "/events",
				seen.get(seen.size() - 1).id())) {
			List<SseClient.Event> missed = replay.until("leaf_changed");
			missed.addAll(replay.until("leaf_changed"));
			assertThat(missed).extracting(SseClient.Event::type)
				.containsExactly("entry_appended", "leaf_changed", "entry_appended", "leaf_changed");
			assertThat(missed.get(0).data().get("entry").get("id").asString()).isEqualTo(two);
			assertThat(missed.get(2).data().get("entry").get("id").asString()).isEqualTo(three);
			assertThat(missed).extracting(SseClient.Event::id).isSorted().doesNotHaveDuplicates();
			assertThat(missed.get(0).id()).isGreaterThan(seen.get(seen.size() - 1).id());
		}
	}

	@Test
	void killingAReplicaWhileEightClientsAppendShouldLoseNoAcknowledgedEntry() throws Exception {
		int port = freePort();
		List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
				"-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
				ArborApplication.class.getName()));
		for (String property : replicaProperties(database, port)) {
			command.add("--" + property);
		}
		Process c = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		try {
			HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
			awaitReady(http, port, c);
			String sessionId = ApiSessions.create(onB);
			Set<String> acknowledged = ConcurrentHashMap.newKeySet();
			ExecutorService clients = Executors.newFixedThreadPool(8);
			List<Future<?>> running = new ArrayList<>();
			for (int n = 0; n < 8; n++) {
				int client = n;
				running.add(clients.submit(() -> appendUntilRefused(http, port, sessionId, client, acknowledged)));
			}
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (acknowledged.size() < 40 && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
			c.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful end of what is in flight
			c.waitFor(10, TimeUnit.SECONDS);
			for (Future<?> each : running) {
				each.get(30, TimeUnit.SECONDS);
			}
			clients.shutdown();
			assertThat(acknowledged).as("entries acknowledged before the kill").hasSizeGreaterThanOrEqualTo(40);
			JsonNode entries = ApiSessions
				.body(onB.get().uri("/sessions/{id}/entries?limit=1000", sessionId).exchange());
			Set<String> stored = new HashSet<>();
			entries.get("items").forEach(entry -> stored.add(entry.get("id").asString()));
			assertThat(stored).as("every acknowledged entry is in the database").containsAll(acknowledged);
			String after = ApiSessions.appendUser(onB, sessionId, "B goes on");
			assertThat(ApiSessions.leaf(onB, sessionId)).isEqualTo(after);
		}
		finally {
			c.destroyForcibly();
		}
	}

	/** Appends until the replica stops answering; records the id of every 201. */
	static Void appendUntilRefused(HttpClient http, int port, String sessionId, int client, Set<String> acknowledged) {
		for (int i = 0;; i++) {
			HttpRequest request = HttpRequest
				.newBuilder(URI.create("http://localhost:" + port + "/sessions/" + sessionId + "/entries"))
				.header("Content-Type", "application/json")
				.timeout(Duration.ofSeconds(10))
				.POST(HttpRequest.BodyPublishers.ofString("{\"type\":\"message\",\"message\":{\"role\":\"user\","
						+ "\"content\":\"client " + client + " entry " + i + "\"}}"))
				.build();
			try {
				HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() != 201) {
					return null;
				}
				acknowledged.add(ApiSessions.json(response.body().getBytes(StandardCharsets.UTF_8)).get("id").asString());
			}
			catch (java.io.IOException ex) {
				return null; // the replica is gone
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return null;
			}
		}
	}

	static void awaitReady(HttpClient http, int port, Process replica) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
		while (true) {
			assertThat(replica.isAlive()).as("the replica process runs").isTrue();
			try {
				HttpResponse<String> ready = http.send(HttpRequest
					.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/readiness"))
					.build(), HttpResponse.BodyHandlers.ofString());
				if (ready.statusCode() == 200) {
					return;
				}
			}
			catch (java.io.IOException ex) {
				// not listening yet
			}
			assertThat(System.nanoTime() - deadline).as("ready within 120 s").isNegative();
			Thread.sleep(200);
		}
	}

	static void awaitCall(ScriptedSummarizer summarizer) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (summarizer.calls.isEmpty()) {
			assertThat(System.nanoTime() - deadline).as("the model is called within 10 s").isNegative();
			Thread.sleep(10);
		}
	}

	static int freePort() throws java.io.IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}

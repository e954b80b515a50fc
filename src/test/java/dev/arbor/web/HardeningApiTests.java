package dev.arbor.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.arbor.events.EventBus;
import dev.arbor.events.EventSink;
import dev.arbor.events.EventType;
import dev.arbor.events.SessionEvent;
import dev.arbor.session.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defects a campaign of hostile requests found, each replayed as it was found: every one gets a 4xx problem
 * document (or the 501 that RFC 9112 asks for) and changes nothing, or succeeds, but never a 500. Small memory
 * settings, so that the limits on a session's size and on request memory are cheap to reach.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class HardeningApiTests {

	static final String JSON = "application/json";

	static final String NDJSON = "application/x-ndjson";

	/** A tag that fits any header and needs no escaping: RFC 9110's etagc, quoted. */
	static final String SAFE_ETAG = "\"[\\x21\\x23-\\x7E]{1,64}\"";

	static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	static final ExecutorService pool = Executors.newFixedThreadPool(8);

	@TempDir
	static Path root;

	@LocalServerPort
	int port;

	@Autowired
	EventBus bus;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", () -> root.resolve("storage").toString());
		registry.add("arbor.storage.max-session-size", () -> "1MB");
		registry.add("arbor.api.max-request-bytes", () -> "256KB");
		registry.add("arbor.api.request-memory", () -> "2MB");
	}

	@AfterAll
	static void stopPool() {
		pool.shutdownNow();
	}

	// ---- 1. a Content-Type that is a range -------------------------------------------------------------------------

	@ParameterizedTest
	@ValueSource(strings = { "*/*", "application/*", "application/*+json", "*/*; charset=utf-8" })
	void writeWhenContentTypeIsARangeShouldReturn415AndChangeNothing(String contentType) throws Exception {
		String sessionId = createSession();
		String leaf = appendUser(sessionId, "hello");
		Map<String, String> before = files();
		List<Answer> answers = List.of(send("POST", "/sessions", contentType, "{}", Map.of()),
				send("POST", "/sessions/" + sessionId + "/entries", contentType, userMessage("x"), Map.of()),
				send("PUT", "/sessions/" + sessionId + "/leaf", contentType, "{\"entryId\":null}", Map.of()),
				send("PUT", "/sessions/" + sessionId + "/labels/" + leaf, contentType, "{\"label\":\"l\"}", Map.of()),
				send("POST", "/sessions/" + sessionId + "/navigate", contentType, "{\"targetId\":\"" + leaf + "\"}", Map.of()),
				send("POST", "/sessions/import", contentType, importFile("ranged", "m1"), Map.of()));
		for (Answer answer : answers) {
			answer.assertProblem(415, "unsupported-media-type");
		}
		assertThat(files()).isEqualTo(before);
	}

	/** The API reads JSON only: a YAML converter, detected from springdoc's class path, answered YAML with a 500. */
	@Test
	void writeWhenBodyIsYamlShouldReturn415AndChangeNothing() throws Exception {
		String sessionId = createSession();
		String leaf = appendUser(sessionId, "hello");
		Map<String, String> before = files();
		send("POST", "/sessions/" + sessionId + "/entries", "application/yaml",
				"type: message\nmessage:\n  role: user\n  content: hi\n", Map.of())
			.assertProblem(415, "unsupported-media-type");
		send("PUT", "/sessions/" + sessionId + "/leaf", "application/yaml", "entryId: " + leaf + "\n", Map.of())
			.assertProblem(415, "unsupported-media-type");
		assertThat(files()).isEqualTo(before);
	}

	// ---- 2. numbers Jackson cannot hold ----------------------------------------------------------------------------

	@ParameterizedTest
	@ValueSource(strings = { "1E+2147483648", "1e-2147483649", "-2.5E+9999999999" })
	void appendWhenANumberHasAnExponentBeyondAnIntShouldReturn400MalformedJsonAndChangeNothing(String number)
			throws Exception {
		String sessionId = createSession();
		Map<String, String> before = files();
		send("POST", "/sessions/" + sessionId + "/entries", JSON,
				"{\"type\":\"custom\",\"customType\":\"n\",\"data\":{\"n\":" + number + "}}", Map.of())
			.assertProblem(400, "malformed-json");
		assertThat(files()).isEqualTo(before);
	}

	/**
	 * Jackson holds these ({@code BigDecimal}'s exponent is an int), but the line made of them would have an exponent
	 * beyond nine digits, which a session file cannot keep: the entry failed when its line was checked, a 500.
	 * {@code 10e999999999} is written {@code 1.0E+1000000000}, {@code 0.5e-999999999} {@code 5E-1000000000}.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "1e2147483647", "1e-2147483648", "-1E+2147483647", "1e1000000000", "0e2147483647",
			"10e999999999", "0.5e-999999999", "1.5e-2147483646" })
	void appendWhenANumberHoldsButItsWrittenExponentIsBeyondNineDigitsShouldReturn400MalformedJsonAndChangeNothing(
			String number) throws Exception {
		String sessionId = createSession();
		String leaf = appendUser(sessionId, "hello");
		Map<String, String> before = files();
		String entries = "/sessions/" + sessionId + "/entries";
		send("POST", entries, JSON, "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\"},\"n\":"
				+ number + "}", Map.of())
			.assertProblem(400, "malformed-json");
		send("POST", entries, JSON, "[" + userMessage("first") + ",{\"type\":\"custom\",\"customType\":\"n\",\"data\":["
				+ number + "]}]", Map.of())
			.assertProblem(400, "malformed-json");
		send("POST", "/sessions/" + sessionId + "/branch-summaries", JSON,
				"{\"fromId\":\"" + leaf + "\",\"summary\":\"s\",\"details\":{\"n\":" + number + "}}", Map.of())
			.assertProblem(400, "malformed-json");
		assertThat(files()).isEqualTo(before);
	}

	@Test
	void appendWhenANumberIsHugeButHoldableShouldKeepItsDigits() throws Exception {
		String sessionId = createSession();
		Answer answer = send("POST", "/sessions/" + sessionId + "/entries", JSON,
				"{\"type\":\"custom\",\"customType\":\"n\",\"data\":{\"n\":1E+999999999,\"m\":123456789012345678901234567890.50}}",
				Map.of());
		assertThat(answer.status()).as(answer.describe()).isEqualTo(201);
		assertThat(Files.readString(ApiSessions.file(storage(), sessionId))).contains("\"n\":1E+999999999")
			.contains("\"m\":123456789012345678901234567890.50");
	}

	@Test
	void importWhenALineHasAnExponentBeyondAnIntShouldTreatItAsMalformed() throws Exception {
		Map<String, String> before = files();
		String file = importFile("exponent", "m1") + "{\"type\":\"custom\",\"customType\":\"n\",\"id\":\"c1\",\"parentId\":\"m1\","
				+ "\"timestamp\":\"2025-11-20T23:33:03.000Z\",\"data\":{\"n\":1E+2147483648}}\n";
		send("POST", "/sessions/import", NDJSON, file, Map.of()).assertProblem(400, "invalid-session-file");
		assertThat(files()).isEqualTo(before);
		Answer skipped = send("POST", "/sessions/import?skipMalformedLines=true", NDJSON, file, Map.of());
		assertThat(skipped.status()).as(skipped.describe()).isEqualTo(201);
		assertThat(skipped.json().get("entryCount").asInt()).isEqualTo(1);
	}

	// ---- 3. entry ids that make no header --------------------------------------------------------------------------

	@ParameterizedTest
	@ValueSource(strings = { "LONG", "x\\\", \\\"y", "a\\ud800b", "root", "with space", "é-accent" })
	void sessionWhoseLeafIdIsNoTokenShouldHaveASafeETagThatIfMatchAccepts(String leafId) throws Exception {
		String id = leafId.equals("LONG") ? "a".repeat(9000) : leafId;
		String sessionId = "odd-leaf-" + Integer.toHexString(leafId.hashCode());
		String file = "{\"type\":\"session\",\"version\":3,\"id\":\"" + sessionId
				+ "\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}\n"
				+ "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":null,\"timestamp\":\"2025-11-20T23:33:02.000Z\","
				+ "\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n";
		Answer imported = send("POST", "/sessions/import", NDJSON, file, Map.of());
		assertThat(imported.status()).as(imported.describe()).isEqualTo(201);
		String tag = imported.etag();
		assertThat(tag).matches(SAFE_ETAG).isNotEqualTo("\"root\"");

		for (String path : List.of("", "/tree", "/leaf", "/entries", "/context")) {
			Answer read = send("GET", "/sessions/" + sessionId + path, null, null, Map.of());
			assertThat(read.status()).as(read.describe()).isEqualTo(200);
			assertThat(read.etag()).as(path).isEqualTo(tag);
		}
		send("PUT", "/sessions/" + sessionId + "/leaf", JSON, "{\"entryId\":null}", Map.of("If-Match", "\"root\""))
			.assertProblem(412, "leaf-moved");
		Answer appended = send("POST", "/sessions/" + sessionId + "/entries", JSON, userMessage("after"),
				Map.of("If-Match", tag));
		assertThat(appended.status()).as(appended.describe()).isEqualTo(201);
		assertThat(appended.json().get("parentId").asString()).isEqualTo(Json.MAPPER.readValue("\"" + id + "\"", String.class));
		Answer stale = send("POST", "/sessions/" + sessionId + "/entries", JSON, userMessage("stale"), Map.of("If-Match", tag));
		stale.assertProblem(412, "leaf-moved");
		assertThat(stale.etag()).isEqualTo(appended.etag());
	}

	// ---- 5. an append racing a delete ------------------------------------------------------------------------------

	@Test
	void appendWhenTheSessionIsDeletedMeanwhileShouldReturn201Or404NeverA5xx() throws Exception {
		List<Integer> statuses = new ArrayList<>();
		for (int round = 0; round < 20; round++) {
			String sessionId = createSession();
			appendUser(sessionId, "first");
			List<Callable<Answer>> calls = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				calls.add(() -> send("POST", "/sessions/" + sessionId + "/entries", JSON, userMessage("racing"), Map.of()));
			}
			calls.add(3, () -> send("DELETE", "/sessions/" + sessionId, null, null, Map.of()));
			for (Future<Answer> future : pool.invokeAll(calls)) {
				Answer answer = future.get();
				assertThat(answer.status()).as(answer.describe()).isIn(201, 204, 404);
				statuses.add(answer.status());
			}
			assertThat(send("GET", "/sessions/" + sessionId, null, null, Map.of()).status()).isEqualTo(404);
		}
		assertThat(statuses).contains(204);
	}

	/**
	 * Every kind of request racing a delete, fifty rounds: each answers as if it ran wholly before the delete (2xx) or
	 * wholly after it (404), never a 5xx, and nothing of the session is left behind (its file, its leaf sidecar, a
	 * backup). What the copies wrote (a fork, a branch) is a session of its own and stays.
	 */
	@Test
	void everyRequestRacingADeleteShouldAnswer2xxOr404AndLeaveNothingOfTheSession() throws Exception {
		Map<Integer, Integer> statuses = new TreeMap<>();
		for (int round = 0; round < 50; round++) {
			String sessionId = createSession();
			String first = appendUser(sessionId, "first");
			String second = appendUser(sessionId, "second");
			String session = "/sessions/" + sessionId;
			List<Callable<Answer>> calls = new ArrayList<>(List.of(
					() -> send("GET", session, null, null, Map.of()),
					() -> send("GET", session + "/tree", null, null, Map.of()),
					() -> send("GET", session + "/tree/rows?limit=50", null, null, Map.of()),
					() -> send("GET", session + "/tree/outline", null, null, Map.of()),
					() -> send("GET", session + "/context", null, null, Map.of()),
					() -> send("GET", session + "/path", null, null, Map.of()),
					() -> send("GET", session + "/export", null, null, Map.of()),
					() -> send("GET", session + "/entries/" + first, null, null, Map.of()),
					() -> send("POST", session + "/entries", JSON, userMessage("racing"), Map.of()),
					() -> send("PUT", session + "/labels/" + first, JSON, "{\"label\":\"racing\"}", Map.of()),
					() -> send("PUT", session + "/leaf", JSON, "{\"entryId\":\"" + first + "\"}", Map.of()),
					() -> send("POST", session + "/navigate", JSON, "{\"targetId\":\"" + first + "\"}", Map.of()),
					() -> send("POST", session + "/fork", null, null, Map.of()),
					() -> send("POST", session + "/branch", JSON, "{\"entryId\":\"" + second + "\"}", Map.of()),
					() -> send("POST", session + "/branched-sessions", JSON, "{\"leafId\":\"" + second + "\"}",
							Map.of())));
			calls.add(round % calls.size(), () -> send("DELETE", session, null, null, Map.of()));
			for (Future<Answer> future : pool.invokeAll(calls)) {
				Answer answer = future.get();
				assertThat(answer.status()).as(answer.describe()).isIn(200, 201, 204, 404);
				statuses.merge(answer.status(), 1, Integer::sum);
			}
			assertThat(send("GET", session, null, null, Map.of()).status()).isEqualTo(404);
			assertThat(files().keySet()).as("files of %s after round %d", sessionId, round)
				.noneMatch(name -> name.contains(sessionId));
		}
		assertThat(statuses).containsKeys(200, 204, 404);
	}

	// ---- 6. what Jetty does not implement --------------------------------------------------------------------------

	/**
	 * Host names the target's authority, which for {@code CONNECT} is the whole target (RFC 9112, section 3.2). Read
	 * to the end of the stream: the connection must be closed, for what follows is no request.
	 */
	@Test
	void requestWhenMethodIsConnectShouldReturn501NotImplementedProblem() throws IOException {
		RawAnswer answer = raw("CONNECT localhost:" + this.port + " HTTP/1.1\r\nHost: localhost:" + this.port
				+ "\r\n\r\n");
		answer.assertProblem(501, "not-implemented");
	}

	/**
	 * A Host other than the target's authority is a malformed request to Jetty, refused before any method is looked
	 * at. Jetty keeps that connection open (its idle timeout ends it), so the answer is read to its length.
	 */
	@Test
	void requestWhenConnectHostIsNotItsTargetShouldReturn400BadRequestProblem() throws IOException {
		RawAnswer answer = rawAnswer("CONNECT localhost:" + this.port + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
		answer.assertProblem(400, "bad-request");
		assertThat(answer.problem().get("detail").asString()).contains("Host");
	}

	/** Jetty refuses a transfer coding other than chunked as a malformed request, and says which coding it takes. */
	@Test
	void requestWhenTransferCodingIsUnknownShouldReturn400BadRequestProblemAndChangeNothing() throws IOException {
		Map<String, String> before = files();
		RawAnswer answer = raw("POST /sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
				+ "Transfer-Encoding: gzip\r\nConnection: close\r\n\r\n{}");
		answer.assertProblem(400, "bad-request");
		assertThat(answer.problem().get("detail").asString()).contains("Transfer-Encoding", "chunked");
		assertThat(files()).isEqualTo(before);
	}

	/** Jetty answers 505 itself; the problem document must not say internal-error, a failure inside Arbor. */
	@ParameterizedTest
	@ValueSource(strings = { "GET /sessions HTTP/1.2", "POST /sessions HTTP/1.9" })
	void requestWhenHttpVersionIsNotSupportedShouldReturn505ProblemThatSaysSo(String requestLine) throws IOException {
		Map<String, String> before = files();
		RawAnswer answer = raw(requestLine + "\r\nHost: x\r\n\r\n");
		answer.assertProblem(505, "http-version-not-supported");
		assertThat(answer.problem().get("title").asString()).isEqualTo("HTTP version not supported");
		assertThat(files()).isEqualTo(before);
	}

	/** HTTP/2 is not spoken on the connection (no prior knowledge): Jetty asks for an upgrade, a client error. */
	@Test
	void requestWhenHttpVersionIsTwoShouldReturn426ProblemAndChangeNothing() throws IOException {
		Map<String, String> before = files();
		RawAnswer answer = raw("GET /sessions HTTP/2.0\r\nHost: x\r\n\r\n");
		answer.assertProblem(426, "client-error");
		assertThat(files()).isEqualTo(before);
	}

	/**
	 * Any other status Jetty answers on its own gets a type of its status class, not bad-request (400) or
	 * internal-error (500): here 417 for an expectation other than {@code 100-continue}.
	 */
	@Test
	void requestWhenJettyRefusesWithAStatusOfNoTypeShouldReturnTheTypeOfItsClass() throws IOException {
		Map<String, String> before = files();
		RawAnswer answer = raw("POST /sessions HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\n"
				+ "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
		answer.assertProblem(417, "client-error");
		assertThat(files()).isEqualTo(before);
	}

	// ---- 8. parameters read strictly -------------------------------------------------------------------------------

	@ParameterizedTest
	@ValueSource(strings = { "skipMalformedLines=yes", "skipMalformedLines=1", "skipMalformedLines=",
			"skipMalformedLines=TRUE", "skipMalformedLines=true&skipMalformedLines=true",
			"skipMalformedLines=false&skipMalformedLines=true" })
	void importWhenSkipMalformedLinesIsNotExactlyOneBooleanShouldReturn400AndChangeNothing(String query)
			throws Exception {
		Map<String, String> before = files();
		Answer answer = send("POST", "/sessions/import?" + query, NDJSON, importFile("strict-" + query.length(), "m1"),
				Map.of());
		answer.assertProblem(400, "invalid-parameter");
		assertThat(answer.json().get("parameter").asString()).isEqualTo("skipMalformedLines");
		assertThat(files()).isEqualTo(before);
	}

	@ParameterizedTest
	@ValueSource(strings = { "limit=0x10", "limit=+5", "limit=%205", "limit=5%20", "limit=1e1", "limit=", "limit=5&limit=5",
			"cwd=a&cwd=b", "cursor=a&cursor=b" })
	void listWhenAParameterIsNotOneDecimalValueShouldReturn400(String query) throws Exception {
		Answer answer = send("GET", "/sessions?" + query, null, null, Map.of());
		answer.assertProblem(400, "invalid-parameter");
		assertThat(answer.json().get("parameter").asString()).isEqualTo(query.substring(0, query.indexOf('=')));
	}

	@Test
	void navigateWhenDryRunIsGivenTwiceShouldReturn400AndMoveNothing() throws Exception {
		String sessionId = createSession();
		String first = appendUser(sessionId, "first");
		appendUser(sessionId, "second");
		Map<String, String> before = files();
		send("POST", "/sessions/" + sessionId + "/navigate?dryRun=true&dryRun=false", JSON,
				"{\"targetId\":\"" + first + "\"}", Map.of())
			.assertProblem(400, "invalid-parameter");
		assertThat(files()).isEqualTo(before);
	}

	// ---- from the new-user try-out -----------------------------------------------------------------------------

	@Test
	void importWhenTheIdIsTakenShouldReturn409AndWithNewIdStoreItUnderAFreshOne() throws Exception {
		String file = importFile("twice", "m1");
		assertThat(send("POST", "/sessions/import", NDJSON, file, Map.of()).status()).isEqualTo(201);
		Map<String, String> before = files();
		send("POST", "/sessions/import", NDJSON, file, Map.of()).assertProblem(409, "session-exists");
		assertThat(files()).isEqualTo(before);

		Answer again = send("POST", "/sessions/import?newId=true", NDJSON, file, Map.of());
		assertThat(again.status()).as(again.describe()).isEqualTo(201);
		String freshId = again.json().get("id").asString();
		assertThat(freshId).isNotEqualTo("twice");
		assertThat(again.response().headers().firstValue("Location")).hasValue("/sessions/" + freshId);
		assertThat(again.json().get("header").get("id").asString()).isEqualTo(freshId);
		String export = new String(send("GET", "/sessions/" + freshId + "/export", null, null, Map.of()).response().body(),
				StandardCharsets.UTF_8);
		assertThat(export).isEqualTo(file.replace("\"id\":\"twice\"", "\"id\":\"" + freshId + "\""));
	}

	@Test
	void listWhenASessionWasImportedLastShouldShowItFirstWhateverItsEntriesDates() throws Exception {
		String older = createSession();
		Answer imported = send("POST", "/sessions/import?newId=true", NDJSON, importFile("dated-2025", "m1"), Map.of());
		JsonNode items = send("GET", "/sessions?cwd=/w&limit=2", null, null, Map.of()).json().get("items");
		assertThat(items.get(0).get("id").asString()).isEqualTo(imported.json().get("id").asString());
		assertThat(items.get(0).get("updatedAt").asString()).isEqualTo("2025-11-20T23:33:02.000Z");
		assertThat(items.get(1).get("id").asString()).isEqualTo(older);
	}

	// ---- 4. memory: a session's size, and request bodies in flight ------------------------------------------------

	@Test
	void appendWhenTheSessionWouldOutgrowItsMaximumShouldReturn413AndWriteNothing() throws Exception {
		String sessionId = createSession();
		String text = "x".repeat(200 * 1024);
		List<Integer> statuses = new ArrayList<>();
		Answer answer;
		do {
			Map<String, String> before = files();
			answer = send("POST", "/sessions/" + sessionId + "/entries", JSON, userMessage(text), Map.of());
			statuses.add(answer.status());
			if (answer.status() != 201) {
				answer.assertProblem(413, "session-too-large");
				assertThat(answer.json().get("limitBytes").asLong()).isEqualTo(1024 * 1024);
				assertThat(files()).isEqualTo(before);
			}
		}
		while (answer.status() == 201 && statuses.size() < 10);
		assertThat(statuses).containsExactly(201, 201, 201, 201, 201, 413); // 5 × 200KB fit in 1MB
		assertThat(send("GET", "/sessions/" + sessionId, null, null, Map.of()).json().get("entryCount").asInt())
			.isEqualTo(5);
	}

	@Test
	void appendWhenItsEventRunsOutOfMemoryShouldStillAnswer201AndTellSubscribersToReadAgain() throws Exception {
		String sessionId = createSession();
		List<SessionEvent> seen = new CopyOnWriteArrayList<>();
		EventSink recording = seen::add;
		EventSink outOfMemory = event -> {
			if (event.type() == EventType.ENTRY_APPENDED) {
				throw new OutOfMemoryError("Java heap space (provoked while the event is delivered)");
			}
			return true;
		};
		this.bus.subscribe(sessionId, null, recording, replay -> {
		});
		this.bus.subscribe(sessionId, null, outOfMemory, replay -> {
		});
		try {
			Answer answer = send("POST", "/sessions/" + sessionId + "/entries", JSON, userMessage("durable"), Map.of());
			assertThat(answer.status()).as(answer.describe()).isEqualTo(201);
			String entryId = answer.json().get("id").asString();
			assertThat(Files.readString(ApiSessions.file(storage(), sessionId))).contains(entryId);
			assertThat(seen).extracting(SessionEvent::type).contains(EventType.RESYNC);
			assertThat(send("GET", "/sessions/" + sessionId, null, null, Map.of()).json().get("leafId").asString())
				.isEqualTo(entryId);
		}
		finally {
			this.bus.unsubscribe(sessionId, recording);
			this.bus.unsubscribe(sessionId, outOfMemory);
		}
	}

	@Test
	void writeWhenRequestMemoryStaysTakenShouldReturn503WithRetryAfterAndChangeNothing() throws Exception {
		String sessionId = createSession();
		Map<String, String> before = files();
		// 256KB announced: eight times that is all of the 2MB, held while the body does not come.
		try (Socket stalled = new Socket("localhost", this.port)) {
			OutputStream out = stalled.getOutputStream();
			out.write(("POST /sessions/" + sessionId + "/entries HTTP/1.1\r\nHost: localhost\r\n"
					+ "Content-Type: application/json\r\nContent-Length: 262144\r\n\r\n{\"type\":").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			Thread.sleep(500);
			Answer busy = send("POST", "/sessions/" + sessionId + "/entries", JSON, userMessage("waits"), Map.of());
			busy.assertProblem(503, "server-busy");
			assertThat(busy.response().headers().firstValue("Retry-After")).hasValue("1");
			Answer read = send("GET", "/sessions/" + sessionId, null, null, Map.of());
			assertThat(read.status()).as("reads reserve nothing").isEqualTo(200);
		}
		assertThat(files()).isEqualTo(before);
	}

	// ---- helpers ---------------------------------------------------------------------------------------------------

	String createSession() throws Exception {
		Answer answer = send("POST", "/sessions", JSON, "{\"cwd\":\"/w\"}", Map.of());
		assertThat(answer.status()).as(answer.describe()).isEqualTo(201);
		return answer.json().get("id").asString();
	}

	String appendUser(String sessionId, String text) throws Exception {
		Answer answer = send("POST", "/sessions/" + sessionId + "/entries", JSON, userMessage(text), Map.of());
		assertThat(answer.status()).as(answer.describe()).isEqualTo(201);
		return answer.json().get("id").asString();
	}

	static String userMessage(String text) {
		return "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":" + Json.quote(text) + "}}";
	}

	static String importFile(String sessionId, String entryId) {
		return "{\"type\":\"session\",\"version\":3,\"id\":\"" + sessionId
				+ "\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}\n"
				+ "{\"type\":\"message\",\"id\":\"" + entryId + "\",\"parentId\":null,\"timestamp\":\"2025-11-20T23:33:02.000Z\","
				+ "\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n";
	}

	Path storage() {
		return root.resolve("storage");
	}

	/**
	 * A coding before chunked: Jetty would take off the chunks and pass the body on still coded. Refused, and the
	 * connection closed, for its body cannot be read; read to the end of the stream.
	 */
	@Test
	void requestWhenTransferCodingIsGzipThenChunkedShouldReturn501NotImplementedProblemAndChangeNothing()
			throws IOException {
		Map<String, String> before = files();
		RawAnswer answer = raw("POST /sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
				+ "Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n");
		answer.assertProblem(501, "not-implemented");
		assertThat(answer.text().toLowerCase()).contains("connection: close");
		assertThat(files()).isEqualTo(before);
	}

	Map<String, String> files() {
		return ApiSessions.files(storage());
	}

	Answer send(String method, String path, String contentType, String body, Map<String, String> headers)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, (body != null) ? BodyPublishers.ofString(body) : BodyPublishers.noBody());
		if (contentType != null) {
			request.header("Content-Type", contentType);
		}
		headers.forEach(request::header);
		HttpResponse<byte[]> response = http.send(request.build(), BodyHandlers.ofByteArray());
		return new Answer(method + " " + path, response);
	}

	RawAnswer raw(String request) throws IOException {
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().flush();
			InputStream in = socket.getInputStream();
			return new RawAnswer(new String(in.readAllBytes(), StandardCharsets.UTF_8));
		}
	}

	record Answer(String request, HttpResponse<byte[]> response) {

		int status() {
			return this.response.statusCode();
		}

		JsonNode json() {
			return ApiSessions.json(this.response.body());
		}

		String etag() {
			return this.response.headers().firstValue("ETag").orElse(null);
		}

		String describe() {
			String body = new String(this.response.body(), StandardCharsets.UTF_8);
			return this.request + " -> " + status() + " " + body.substring(0, Math.min(400, body.length()));
		}

		void assertProblem(int status, String type) {
			assertThat(status()).as(describe()).isEqualTo(status);
			assertThat(this.response.headers().firstValue("Content-Type")).as(describe())
				.hasValueSatisfying(value -> assertThat(value).startsWith("application/problem+json"));
			assertThat(json().get("type").asString()).as(describe()).isEqualTo(ApiSessions.PROBLEMS + type);
			assertThat(json().get("status").asInt()).as(describe()).isEqualTo(status);
		}

	}

	/** The first answer on the connection, read to its {@code Content-Length}, whether or not the server closes. */
	RawAnswer rawAnswer(String request) throws IOException {
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream read = new ByteArrayOutputStream();
			int headEnd = -1;
			int length = -1;
			while (length < 0 || read.size() < headEnd + length) {
				int next = in.read();
				if (next < 0) {
					break;
				}
				read.write(next);
				String text = read.toString(StandardCharsets.US_ASCII);
				if (headEnd < 0 && text.endsWith("\r\n\r\n")) {
					headEnd = text.length();
					Matcher contentLength = Pattern.compile("(?im)^content-length: *(\\d+)").matcher(text);
					length = contentLength.find() ? Integer.parseInt(contentLength.group(1)) : 0;
				}
			}
			return new RawAnswer(read.toString(StandardCharsets.UTF_8));
		}
	}

	record RawAnswer(String text) {

		void assertProblem(int status, String type) {
			assertThat(this.text).as(this.text).startsWith("HTTP/1.1 " + status + " ");
			String head = this.text.substring(0, this.text.indexOf("\r\n\r\n")).toLowerCase();
			assertThat(head).as(this.text).contains("content-type: application/problem+json");
			JsonNode problem = problem();
			assertThat(problem.get("type").asString()).as(this.text).isEqualTo(ApiSessions.PROBLEMS + type);
			assertThat(problem.get("status").asInt()).as(this.text).isEqualTo(status);
		}

		JsonNode problem() {
			String head = this.text.substring(0, this.text.indexOf("\r\n\r\n")).toLowerCase();
			String body = this.text.substring(head.length() + 4);
			if (head.contains("transfer-encoding: chunked")) { // one chunk: its size line, the data, the last chunk
				body = body.substring(body.indexOf("\r\n") + 2, body.lastIndexOf("\r\n0\r\n"));
			}
			return ApiSessions.json(body.getBytes(StandardCharsets.UTF_8));
		}

	}

}

package dev.arbor.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.arbor.session.Json;
import dev.arbor.web.edge.ProblemType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile and broken requests to every operation of docs/API.md#sessions, docs/API.md#entries, docs/API.md#tree,
 * docs/API.md#leaf-and-labels and docs/API.md#context, over real HTTP: each gets a 4xx problem document
 * (docs/API.md#errors-problem-documents) and leaves every file under the storage directory byte for byte as it was.
 * Requests go through {@link HttpClient}, so that an encoded path reaches the server still encoded and a body can be
 * sent chunked; a filter records what the server saw, to show it.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class HostileInputTests {

	/** {@code arbor.api.max-request-bytes} here: small, so that an oversized body is cheap to send. */
	static final int LIMIT = 64 * 1024;

	static final String PROBE = "X-Hostile-Probe";

	/** What the server saw of each request, by the probe header's value. */
	static final Map<String, Seen> seen = new ConcurrentHashMap<>();

	static final AtomicInteger probes = new AtomicInteger();

	static final AtomicInteger imports = new AtomicInteger();

	static final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/** Above the storage directory, so that a file written outside it shows up in the snapshot too. */
	@TempDir
	static Path root;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", () -> root.resolve("storage").toString());
		registry.add("arbor.api.max-request-bytes", () -> "64KB");
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	// ---- ids in paths --------------------------------------------------------------------------------------------

	@ParameterizedTest(name = "{0} with {1} = {2}")
	@MethodSource("hostileIdsInPaths")
	void requestWhenPathIdIsMalformedShouldReturn400InvalidIdAndChangeNothing(Operation operation, String variable,
			String rawId) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture, variable, rawId));
		assertProblem(answer, 400, "invalid-id");
		assertThat(answer.problem().has(variable.equals("sid") ? "sessionId" : "entryId")).as("a hostile id is not echoed")
			.isFalse();
		assertThat(files()).as(answer.describe()).isEqualTo(before);
		if (rawId.contains("%2F")) {
			assertThat(answer.seen()).as("the server saw the request").isNotNull();
			assertThat(answer.seen().uri()).as("the encoded slash reached the server encoded").contains(rawId);
		}
	}

	@ParameterizedTest(name = "{0} with {1} = {2}")
	@MethodSource("dotSegmentIdsInPaths")
	void requestWhenPathIdHasDotSegmentsShouldReturnAProblemAndChangeNothing(Operation operation, String variable,
			String rawId) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture, variable, rawId));
		// The server may refuse the id (400) or, having removed the dot segments, find no such resource (404); it
		// must never reach a file.
		assertProblemIn(answer, Map.of(400, List.of("invalid-id"), 404,
				List.of("not-found", "session-not-found", "entry-not-found")));
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	/** Refused before the API sees them, and nothing written. */
	@ParameterizedTest(name = "{0} with {1} = {2}")
	@MethodSource("containerRefusedIdsInPaths")
	void requestWhenContainerRefusesThePathShouldReturn400AndChangeNothing(Operation operation, String variable,
			String rawId) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture, variable, rawId));
		assertThat(answer.status()).as(answer.describe()).isEqualTo(refusedStatus(rawId));
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@ParameterizedTest(name = "{0} with {1} = {2}")
	@MethodSource("containerRefusedIdsInPaths")
	void requestWhenContainerRefusesThePathShouldAnswerAProblemDocument(Operation operation, String variable,
			String rawId) {
		Answer answer = send(operation.request(fixture(), variable, rawId));
		if (refusedStatus(rawId) == 414) {
			assertProblem(answer, 414, "client-error");
		}
		else {
			assertProblem(answer, 400, "invalid-id", "bad-request");
		}
	}

	/** A request line longer than Jetty reads is refused as URI Too Long (RFC 9112, section 3), the rest as 400. */
	private static int refusedStatus(String rawId) {
		return (rawId.length() > LONGEST_REQUEST_TARGET) ? 414 : 400;
	}

	/** {@code ;y} is a path parameter to the container, which would read {@code x;y} as {@code x}: refused before that. */
	@ParameterizedTest(name = "{0} with {1} = {2}")
	@MethodSource("pathParameterIdsInPaths")
	void requestWhenPathIdHasAPathParameterShouldReturn400AndChangeNothing(Operation operation, String variable,
			String rawId) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture, variable, rawId));
		assertProblem(answer, 400, "bad-request");
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@ParameterizedTest(name = "{0} with {1} = {2}")
	@MethodSource("unknownIdsInPaths")
	void requestWhenPathIdIsWellFormedButUnknownShouldReturn404AndChangeNothing(Operation operation, String variable,
			String id) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture, variable, id));
		assertProblem(answer, 404, variable.equals("sid") ? "session-not-found" : "entry-not-found");
		assertThat(answer.problem().path(variable.equals("sid") ? "sessionId" : "entryId").asString()).isEqualTo(id);
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("hostileIdsInQueries")
	void requestWhenQueryIdIsMalformedShouldReturn400InvalidIdAndChangeNothing(String pathAndQuery) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(new Request("GET", pathAndQuery.replace("{sid}", fixture.sessionId()), null, null,
				Map.of(), false));
		assertProblem(answer, 400, "invalid-id");
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@Test
	void contextWhenLeafIdIsUnknownShouldReturn404() {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(Request.get("/sessions/" + fixture.sessionId() + "/context?leafId=deadbeef"));
		assertProblem(answer, 404, "entry-not-found");
		assertThat(files()).isEqualTo(before);
	}

	@Test
	void listEntriesWhenAfterIsUnknownShouldReturn404() {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(Request.get("/sessions/" + fixture.sessionId() + "/entries?after=deadbeef"));
		assertProblem(answer, 404, "entry-not-found");
		assertThat(files()).isEqualTo(before);
	}

	// ---- bodies ----------------------------------------------------------------------------------------------------

	@ParameterizedTest(name = "{0}")
	@MethodSource("brokenBodies")
	void requestWhenBodyIsBrokenShouldReturn4xxNamingTheFieldAndChangeNothing(BodyCase body) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Request request = body.operation().request(fixture);
		Answer answer = send(new Request(request.method(), request.path(), body.contentType(),
				body.body().apply(fixture), Map.of(), false));
		assertProblem(answer, body.status(), body.types().toArray(String[]::new));
		if (body.field() != null) {
			JsonNode problem = answer.problem();
			assertThat(problem.path("field").asString()).as(answer.describe()).isEqualTo(body.field());
			assertThat(problem.path("detail").asString()).as(answer.describe()).contains(body.detailWord());
		}
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@Test
	void appendWhenCompactionKeepsAnEntryOffTheCurrentPathShouldReturn400AndChangeNothing() {
		String sessionId = ApiSessions.create(this.client);
		String a = ApiSessions.appendUser(this.client, sessionId, "a");
		String b = ApiSessions.appendAssistant(this.client, sessionId, "b");
		Answer moved = send(new Request("PUT", "/sessions/" + sessionId + "/leaf", MediaType.APPLICATION_JSON_VALUE,
				bytes("{\"entryId\":\"" + a + "\"}"), Map.of(), false));
		assertThat(moved.status()).as(moved.describe()).isEqualTo(200);
		ApiSessions.appendAssistant(this.client, sessionId, "c");
		Map<String, String> before = files();
		Answer answer = send(new Request("POST", "/sessions/" + sessionId + "/entries", MediaType.APPLICATION_JSON_VALUE,
				bytes("{\"type\":\"compaction\",\"summary\":\"s\",\"firstKeptEntryId\":\"" + b + "\",\"tokensBefore\":10}"),
				Map.of(), false));
		assertProblem(answer, 400, "invalid-entry");
		assertThat(answer.problem().path("field").asString()).isEqualTo("firstKeptEntryId");
		assertThat(files()).isEqualTo(before);
	}

	@Test
	void appendWhenThirdDraftOfABatchIsInvalidShouldReturn400NamingItAndWriteNothingOfTheBatch() {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(new Request("POST", "/sessions/" + fixture.sessionId() + "/entries",
				MediaType.APPLICATION_JSON_VALUE,
				bytes("[" + USER + "," + USER + ",{\"type\":\"message\",\"message\":{\"content\":\"no role\"}}," + USER + "]"),
				Map.of(), false));
		assertProblem(answer, 400, "invalid-entry");
		assertThat(answer.problem().path("field").asString()).isEqualTo("[2].message.role");
		assertThat(answer.problem().path("detail").asString()).contains("2");
		assertThat(files()).isEqualTo(before);
		assertThat(ApiSessions.body(this.client.get().uri("/sessions/{id}/leaf", fixture.sessionId()).exchange())
			.get("leafId")
			.asString()).isEqualTo(fixture.second());
	}

	// ---- size limit ------------------------------------------------------------------------------------------------

	@ParameterizedTest(name = "{0}")
	@MethodSource("operationsWithBodies")
	void requestWhenBodyIsOverTheLimitShouldReturn413AndChangeNothing(Operation operation) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Request request = operation.request(fixture);
		byte[] body = operation.padded(fixture, LIMIT + 1);
		assertThat(body.length).isGreaterThan(LIMIT);
		Answer answer = send(new Request(request.method(), request.path(), request.contentType(), body, Map.of(), false));
		assertProblem(answer, 413, "request-too-large");
		assertThat(answer.seen().contentLength()).isEqualTo(body.length);
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("operationsWithBodies")
	void requestWhenChunkedBodyIsOverTheLimitShouldReturn413AndChangeNothing(Operation operation) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Request request = operation.request(fixture);
		byte[] body = operation.padded(fixture, 4 * LIMIT);
		Answer answer = send(new Request(request.method(), request.path(), request.contentType(), body, Map.of(), true));
		assertProblem(answer, 413, "request-too-large");
		assertThat(answer.seen().contentLength()).as("no Content-Length").isEqualTo(-1);
		assertThat(answer.seen().transferEncoding()).isEqualToIgnoringCase("chunked");
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	/** The padded bodies of the two tests above are valid: one just under the limit is taken, chunked or not. */
	@ParameterizedTest(name = "{0}")
	@MethodSource("operationsWithBodies")
	void requestWhenPaddedBodyIsJustUnderTheLimitShouldSucceed(Operation operation) {
		for (boolean chunked : new boolean[] { false, true }) {
			Fixture fixture = fixture();
			Request request = operation.request(fixture);
			byte[] body = operation.padded(fixture, LIMIT - 256);
			assertThat(body.length).isLessThanOrEqualTo(LIMIT);
			Answer answer = send(
					new Request(request.method(), request.path(), request.contentType(), body, Map.of(), chunked));
			assertThat(answer.status()).as(answer.describe()).isBetween(200, 299);
		}
	}

	// ---- If-Match --------------------------------------------------------------------------------------------------

	@ParameterizedTest(name = "{0}")
	@MethodSource("mutations")
	void mutationWhenIfMatchIsStaleShouldReturn412WithTheLeafAndChangeNothing(Operation operation) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Request request = operation.request(fixture).header("If-Match", "\"" + fixture.first() + "\"");
		Answer answer = send(request);
		assertProblem(answer, 412, "leaf-moved");
		assertThat(answer.headers().firstValue("ETag")).hasValue("\"" + fixture.second() + "\"");
		assertThat(answer.problem().path("leafId").asString()).isEqualTo(fixture.second());
		assertThat(answer.problem().path("sessionId").asString()).isEqualTo(fixture.sessionId());
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("mutations")
	void mutationWhenIfMatchIsWeakOrRootShouldReturn412AndChangeNothing(Operation operation) {
		for (String header : List.of("W/\"%s\"", "\"root\"", "\"deadbeef\", \"cafebabe\"")) {
			Fixture fixture = fixture();
			Map<String, String> before = files();
			Answer answer = send(operation.request(fixture).header("If-Match", header.formatted(fixture.second())));
			assertProblem(answer, 412, "leaf-moved");
			assertThat(answer.headers().firstValue("ETag")).hasValue("\"" + fixture.second() + "\"");
			assertThat(files()).as(answer.describe()).isEqualTo(before);
		}
	}

	@ParameterizedTest(name = "{0} with If-Match: {1}")
	@MethodSource("malformedIfMatches")
	void mutationWhenIfMatchIsMalformedShouldReturn400AndChangeNothing(Operation operation, String header) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture).header("If-Match", header));
		assertProblem(answer, 400, "invalid-if-match");
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	/**
	 * A malformed header around a stale tag: refused either way. (The server is lenient here, it reads
	 * {@code "a" junk} as {@code "a"}: see the disabled test below.)
	 */
	@ParameterizedTest(name = "{0} with If-Match: {1}")
	@MethodSource("malformedIfMatchesAroundAStaleTag")
	void mutationWhenMalformedIfMatchHoldsAStaleTagShouldFailAndChangeNothing(Operation operation, String header) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture).header("If-Match", header.formatted(fixture.first())));
		assertProblemIn(answer, Map.of(400, List.of("invalid-if-match"), 412, List.of("leaf-moved")));
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	static Stream<Arguments> malformedIfMatchesAroundAStaleTag() {
		return mutations().flatMap(operation -> Stream.of("\"%s\" junk", "\"%s\"junk", "\"%s\"\"x\"", "\"%s\",,")
			.map(header -> Arguments.of(operation, header)));
	}

	// ---- query parameters ------------------------------------------------------------------------------------------

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidQueries")
	void requestWhenQueryParameterIsInvalidShouldReturn400AndChangeNothing(String pathAndQuery) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(Request.get(pathAndQuery.replace("{sid}", fixture.sessionId())));
		assertProblem(answer, 400, "invalid-parameter");
		String parameter = pathAndQuery.substring(pathAndQuery.indexOf('?') + 1, pathAndQuery.indexOf('='));
		assertThat(answer.problem().path("parameter").asString()).as(answer.describe()).isEqualTo(parameter);
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	/** Not UTF-8 in the query: a problem and no change, though with the wrong status (see the disabled test below). */
	@ParameterizedTest(name = "{0}")
	@MethodSource("queriesThatAreNoUtf8")
	void requestWhenQueryIsNoUtf8ShouldAnswerAProblemAndChangeNothing(String method, String pathAndQuery) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(queryRequest(method, pathAndQuery, fixture));
		assertThat(answer.status()).as(answer.describe()).isGreaterThanOrEqualTo(400);
		assertThat(answer.headers().firstValue("Content-Type")).as(answer.describe())
			.hasValueSatisfying(type -> assertThat(type).startsWith(MediaType.APPLICATION_PROBLEM_JSON_VALUE));
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("queriesThatAreNoUtf8")
	void requestWhenQueryIsNoUtf8ShouldReturn400(String method, String pathAndQuery) {
		Answer answer = send(queryRequest(method, pathAndQuery, fixture()));
		assertProblem(answer, 400, "invalid-parameter", "bad-request");
	}

	static Stream<Arguments> queriesThatAreNoUtf8() {
		return Stream.of(Arguments.of("GET", "/sessions?limit=%FF"), Arguments.of("GET", "/sessions?cursor=%FF"),
				Arguments.of("GET", "/sessions?cwd=%C3"), Arguments.of("GET", "/sessions/{sid}/entries?after=%FF"),
				Arguments.of("GET", "/sessions/{sid}/entries?limit=%FF"),
				Arguments.of("GET", "/sessions/{sid}/tree/rows?filter=%FF"),
				Arguments.of("GET", "/sessions/{sid}/tree/rows?q=%FF"),
				Arguments.of("GET", "/sessions/{sid}/context?format=%FF"),
				Arguments.of("GET", "/sessions/{sid}/context?leafId=%FF"),
				Arguments.of("POST", "/sessions/import?skipMalformedLines=%FF"));
	}

	Request queryRequest(String method, String pathAndQuery, Fixture fixture) {
		String path = pathAndQuery.replace("{sid}", fixture.sessionId());
		return method.equals("POST")
				? new Request("POST", path, NDJSON, bytes(importFile("imported-" + imports.incrementAndGet(), "hi")),
						Map.of(), false)
				: Request.get(path);
	}

	/** The API's names only: not the Java constants, not with blanks or NULs around them. */
	@ParameterizedTest(name = "{0}")
	@MethodSource("enumConstantNames")
	void requestWhenFilterOrFormatIsAJavaConstantNameShouldReturn400(String pathAndQuery) {
		Answer answer = send(Request.get(pathAndQuery.replace("{sid}", fixture().sessionId())));
		assertProblem(answer, 400, "invalid-parameter");
	}

	static Stream<String> enumConstantNames() {
		return Stream.of("/sessions/{sid}/tree/rows?filter=ALL", "/sessions/{sid}/tree/rows?filter=NO_TOOLS",
				"/sessions/{sid}/tree/rows?filter=DEFAULT%00", "/sessions/{sid}/tree/rows?filter=%20USER_ONLY%09",
				"/sessions/{sid}/context?format=LLM", "/sessions/{sid}/context?format=AGENT%00");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("mutations")
	void mutationWhenIfMatchHasJunkAfterTheCurrentLeafShouldReturn400AndChangeNothing(Operation operation) {
		Fixture fixture = fixture();
		Map<String, String> before = files();
		Answer answer = send(operation.request(fixture).header("If-Match", "\"" + fixture.second() + "\" junk"));
		assertProblem(answer, 400, "invalid-if-match");
		assertThat(files()).as(answer.describe()).isEqualTo(before);
	}

	@Test
	void importWhenSkipMalformedLinesIsNoBooleanShouldReturn400AndChangeNothing() {
		Map<String, String> before = files();
		Answer answer = send(new Request("POST", "/sessions/import?skipMalformedLines=maybe", NDJSON,
				bytes(importFile("imported-maybe", "hi")), Map.of(), false));
		assertProblem(answer, 400, "invalid-parameter");
		assertThat(answer.problem().path("parameter").asString()).isEqualTo("skipMalformedLines");
		assertThat(files()).isEqualTo(before);
	}

	// ---- the operations --------------------------------------------------------------------------------------------

	static final String USER = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}";

	static final String JSON = MediaType.APPLICATION_JSON_VALUE;

	static final String NDJSON = "application/x-ndjson";

	static final Operation LIST_SESSIONS = Operation.of("GET", "/sessions");

	static final Operation CREATE_SESSION = Operation.of("POST", "/sessions", JSON,
			fixture -> "{\"cwd\":\"/work\",\"title\":\"hostile\"}");

	static final Operation GET_SESSION = Operation.of("GET", "/sessions/{sid}");

	static final Operation DELETE_SESSION = Operation.of("DELETE", "/sessions/{sid}");

	static final Operation IMPORT = Operation.of("POST", "/sessions/import", NDJSON,
			fixture -> importFile("imported-" + imports.incrementAndGet(), "hi"));

	static final Operation EXPORT = Operation.of("GET", "/sessions/{sid}/export");

	static final Operation APPEND = Operation.of("POST", "/sessions/{sid}/entries", JSON, fixture -> USER);

	static final Operation LIST_ENTRIES = Operation.of("GET", "/sessions/{sid}/entries");

	static final Operation GET_ENTRY = Operation.of("GET", "/sessions/{sid}/entries/{eid}");

	static final Operation CHILDREN = Operation.of("GET", "/sessions/{sid}/entries/{eid}/children");

	static final Operation ENTRY_PATH = Operation.of("GET", "/sessions/{sid}/entries/{eid}/path");

	static final Operation LEAF_PATH = Operation.of("GET", "/sessions/{sid}/path");

	static final Operation TREE = Operation.of("GET", "/sessions/{sid}/tree");

	static final Operation ROWS = Operation.of("GET", "/sessions/{sid}/tree/rows");

	static final Operation GET_LEAF = Operation.of("GET", "/sessions/{sid}/leaf");

	static final Operation MOVE_LEAF = Operation.of("PUT", "/sessions/{sid}/leaf", JSON,
			fixture -> "{\"entryId\":\"" + fixture.first() + "\"}");

	static final Operation BRANCH_SUMMARY = Operation.of("POST", "/sessions/{sid}/branch-summaries", JSON,
			fixture -> "{\"fromId\":\"" + fixture.first() + "\",\"summary\":\"tried it\"}");

	static final Operation LABELS = Operation.of("GET", "/sessions/{sid}/labels");

	static final Operation SET_LABEL = Operation.of("PUT", "/sessions/{sid}/labels/{eid}", JSON,
			fixture -> "{\"label\":\"checkpoint\"}");

	static final Operation CLEAR_LABEL = Operation.of("DELETE", "/sessions/{sid}/labels/{eid}");

	static final Operation CONTEXT = Operation.of("GET", "/sessions/{sid}/context");

	static final Operation NAVIGATE = Operation.of("POST", "/sessions/{sid}/navigate", JSON,
			fixture -> "{\"targetId\":\"" + fixture.first() + "\"}");

	static final Operation ABORT_NAVIGATION = Operation.of("DELETE", "/sessions/{sid}/navigations/nav-1");

	static final Operation BRANCH = Operation.of("POST", "/sessions/{sid}/branch", JSON,
			fixture -> "{\"entryId\":\"" + fixture.first() + "\"}");

	static final Operation FORK = Operation.of("POST", "/sessions/{sid}/fork");

	static final Operation BRANCHED_SESSION = Operation.of("POST", "/sessions/{sid}/branched-sessions", JSON,
			fixture -> "{\"leafId\":\"" + fixture.second() + "\"}");

	static final Operation EVENTS = Operation.of("GET", "/sessions/{sid}/events");

	static final List<Operation> OPERATIONS = List.of(LIST_SESSIONS, CREATE_SESSION, GET_SESSION, DELETE_SESSION,
			IMPORT, EXPORT, APPEND, LIST_ENTRIES, GET_ENTRY, CHILDREN, ENTRY_PATH, LEAF_PATH, TREE, ROWS, GET_LEAF,
			MOVE_LEAF, BRANCH_SUMMARY, LABELS, SET_LABEL, CLEAR_LABEL, CONTEXT, NAVIGATE, ABORT_NAVIGATION, BRANCH,
			FORK, BRANCHED_SESSION, EVENTS);

	/** Ids the API must refuse itself, raw as they go on the wire. */
	static final List<String> MALFORMED_IDS = List.of("..%2F..%2Fetc", "%2E%2E%2Fx", "..", "%2E%2E", "a".repeat(200),
			"a".repeat(129), "a%20b", "-x", "_x", "x%0Ay", "x%0D%0ASet-Cookie:%20a=b", "%C3%A9t%C3%A9", "a%2Fb",
			"x%22y", "~x", "x%3By");

	/** Jetty's request header size (8 KB), which bounds the request line too. */
	static final int LONGEST_REQUEST_TARGET = 8 * 1024;

	/** Ids Jetty refuses before the API sees them: NUL, backslash, bytes that are no UTF-8, a request line over 8 KB. */
	static final List<String> CONTAINER_REFUSED_IDS = List.of("%00", "a%00b", "a%5Cb", "%FF", "a".repeat(9000));

	/** Ids with a path parameter, which the container strips: {@code x;y} is read as {@code x}. */
	static final List<String> PATH_PARAMETER_IDS = List.of("x;y", "x;jsessionid=0");

	static Stream<Arguments> hostileIdsInPaths() {
		return idArguments(MALFORMED_IDS);
	}

	static Stream<Arguments> dotSegmentIdsInPaths() {
		return idArguments(List.of("../x", "..%2Fx/..", "./x", "%2E%2E/x", ".%2E/x"));
	}

	static Stream<Arguments> containerRefusedIdsInPaths() {
		return idArguments(CONTAINER_REFUSED_IDS);
	}

	static Stream<Arguments> pathParameterIdsInPaths() {
		return idArguments(PATH_PARAMETER_IDS);
	}

	static Stream<Arguments> unknownIdsInPaths() {
		return OPERATIONS.stream().flatMap(operation -> Stream.of("sid", "eid")
			.filter(operation::uses)
			.map(variable -> Arguments.of(operation, variable,
					variable.equals("sid") ? "no-such-session" : "deadbeef")));
	}

	static Stream<Arguments> idArguments(List<String> ids) {
		return OPERATIONS.stream()
			.flatMap(operation -> Stream.of("sid", "eid")
				.filter(operation::uses)
				.flatMap(variable -> ids.stream().map(id -> Arguments.of(operation, variable, id))));
	}

	static Stream<String> hostileIdsInQueries() {
		Stream<String> ids = Stream.concat(MALFORMED_IDS.stream(), Stream.of("../x", "%00", "a%00b", "a%5Cb", "x;y"));
		return ids.flatMap(id -> Stream.of("/sessions/{sid}/entries?after=" + id, "/sessions/{sid}/context?leafId=" + id));
	}

	static Stream<Operation> operationsWithBodies() {
		return OPERATIONS.stream().filter(operation -> operation.contentType() != null);
	}

	static Stream<Operation> mutations() {
		return Stream.of(DELETE_SESSION, APPEND, MOVE_LEAF, BRANCH_SUMMARY, SET_LABEL, CLEAR_LABEL, NAVIGATE);
	}

	static Stream<Arguments> malformedIfMatches() {
		return mutations().flatMap(operation -> Stream.of("abc", "\"unterminated", "W/abc", ",", "W/")
			.map(header -> Arguments.of(operation, header)));
	}

	static Stream<String> invalidQueries() {
		List<String> paths = new ArrayList<>();
		for (String base : List.of("/sessions", "/sessions/{sid}/entries", "/sessions/{sid}/tree/rows")) {
			for (String limit : List.of("0", "-1", "abc", "100000", "99999999999", "1.5", "%00", "1%00")) {
				paths.add(base + "?limit=" + limit);
			}
		}
		paths.add("/sessions/{sid}/tree/rows?filter=bogus");
		paths.add("/sessions/{sid}/tree/rows?filter=default%00");
		paths.add("/sessions/{sid}/tree/rows?filter=%20all");
		paths.add("/sessions/{sid}/tree/rows?filter=no_tools");
		paths.add("/sessions/{sid}/context?format=bogus");
		paths.add("/sessions/{sid}/context?format=llm%20");
		paths.add("/sessions?cursor=bogus");
		paths.add("/sessions/{sid}/tree/rows?cursor=bogus");
		return paths.stream();
	}

	static Stream<BodyCase> brokenBodies() {
		List<BodyCase> cases = new ArrayList<>();
		// Every JSON operation: not JSON, trailing garbage, nothing, not an object, the wrong media type.
		for (Operation operation : List.of(CREATE_SESSION, APPEND, MOVE_LEAF, BRANCH_SUMMARY, SET_LABEL)) {
			cases.add(body(operation, "{\"entryId\":").expect(400, null, "malformed-json"));
			cases.add(body(operation, "{'entryId':null}").expect(400, null, "malformed-json"));
			cases.add(body(operation, "valid + }", fixture -> operation.body().apply(fixture) + "}")
				.expect(400, null, "malformed-json"));
			cases.add(body(operation, "valid + garbage", fixture -> operation.body().apply(fixture) + " garbage")
				.expect(400, null, "malformed-json"));
			// Two documents: refused, though as "The body must be an object" (invalid-field, "field":null).
			cases.add(body(operation, "valid twice", fixture -> operation.body().apply(fixture) + operation.body().apply(fixture))
				.expect(400, null, "malformed-json", "invalid-field"));
			cases.add(body(operation, "\"just a string\"").expect(400, null, "invalid-field", "invalid-entry"));
			cases.add(body(operation, "42").expect(400, null, "invalid-field", "invalid-entry"));
			cases.add(body(operation, "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"a\u0000b\"}}")
				.expect(400, null, "malformed-json"));
			cases.add(new BodyCase(operation, JSON, "invalid UTF-8", fixture -> new byte[] { '{', '"', 'a', '"', ':', '"',
					(byte) 0xC3, (byte) 0x28, '"', '}' }).expect(400, null, "malformed-json"));
			// Too deep for Jackson's limits; the server answers 400 but calls the body "missing or unreadable".
			cases.add(body(operation, "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":"
					+ "[".repeat(5000) + "]".repeat(5000) + "}}").expect(400, null, "malformed-json", "bad-request"));
			cases.add(new BodyCase(operation, MediaType.TEXT_PLAIN_VALUE, "valid as text/plain",
					fixture -> bytes(operation.body().apply(fixture))).expect(415, null, "unsupported-media-type"));
			if (operation != CREATE_SESSION) { // its body may be left out
				cases.add(body(operation, "").expect(400, null, "bad-request"));
				cases.add(body(operation, "null").expect(400, null, "bad-request", "invalid-entry"));
				cases.add(body(operation, "[]").expect(400, null, "invalid-field", "invalid-entry"));
			}
		}
		// POST /sessions
		cases.add(body(CREATE_SESSION, "{\"cwd\":5}").expect(400, "cwd", "invalid-field"));
		cases.add(body(CREATE_SESSION, "{\"title\":true}").expect(400, "title", "invalid-field"));
		cases.add(body(CREATE_SESSION, "{\"parentSession\":{}}").expect(400, "parentSession", "invalid-field"));
		cases.add(body(CREATE_SESSION, "[{\"cwd\":\"/work\"}]").expect(400, null, "invalid-field"));
		// PUT /sessions/{sid}/leaf
		cases.add(body(MOVE_LEAF, "{\"entryId\":5}").expect(400, "entryId", "invalid-field"));
		cases.add(body(MOVE_LEAF, "{\"entryId\":true}").expect(400, "entryId", "invalid-field"));
		cases.add(body(MOVE_LEAF, "{\"entryId\":[\"a\"]}").expect(400, "entryId", "invalid-field"));
		cases.add(body(MOVE_LEAF, "{}").expect(400, "entryId", "invalid-field"));
		cases.add(body(MOVE_LEAF, "{\"entryid\":null}").expect(400, "entryId", "invalid-field"));
		cases.add(body(MOVE_LEAF, "[{\"entryId\":null}]").expect(400, null, "invalid-field"));
		cases.add(body(MOVE_LEAF, "{\"entryId\":\"../x\"}").expect(400, "entryId", "invalid-id", "invalid-field"));
		cases.add(body(MOVE_LEAF, "{\"entryId\":\"" + "a".repeat(200) + "\"}").expect(400, "entryId", "invalid-id",
				"invalid-field"));
		cases.add(body(MOVE_LEAF, "{\"entryId\":\"deadbeef\"}").expect(404, null, "entry-not-found"));
		// POST /sessions/{sid}/branch-summaries
		cases.add(body(BRANCH_SUMMARY, "{\"fromId\":null,\"summary\":7}").expect(400, "summary", "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{\"fromId\":null,\"summary\":\"s\",\"fromExtension\":\"yes\"}").expect(400,
				"fromExtension", "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{\"fromId\":5,\"summary\":\"s\"}").expect(400, "fromId", "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{}").expect(400, "fromId", "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{\"summary\":\"s\"}").expect(400, "fromId", "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{\"fromId\":null}").expect(400, "summary", "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{\"fromId\":null,\"summary\":null}").expect(400, "summary", "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "[{\"fromId\":null,\"summary\":\"s\"}]").expect(400, null, "invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{\"fromId\":\"../x\",\"summary\":\"s\"}").expect(400, "fromId", "invalid-id",
				"invalid-field"));
		cases.add(body(BRANCH_SUMMARY, "{\"fromId\":\"deadbeef\",\"summary\":\"s\"}").expect(404, null,
				"entry-not-found"));
		// PUT /sessions/{sid}/labels/{eid}
		cases.add(body(SET_LABEL, "{\"label\":true}").expect(400, "label", "invalid-field"));
		cases.add(body(SET_LABEL, "{\"label\":5}").expect(400, "label", "invalid-field"));
		cases.add(body(SET_LABEL, "{\"label\":{}}").expect(400, "label", "invalid-field"));
		cases.add(body(SET_LABEL, "{}").expect(400, "label", "invalid-field"));
		cases.add(body(SET_LABEL, "{\"label\":null}").expect(400, "label", "invalid-field"));
		cases.add(body(SET_LABEL, "[{\"label\":\"x\"}]").expect(400, null, "invalid-field"));
		// POST /sessions/{sid}/entries
		cases.add(body(APPEND, "{}").expect(400, "type", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":5}").expect(400, "type", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":null}").expect(400, "type", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"bogus\"}").expect(400, "type", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"session\",\"id\":\"x\",\"version\":3}").expect(400, null, "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"branch_summary\",\"fromId\":\"root\",\"summary\":\"s\"}")
			.expect(400, "type", "invalid-entry")
			.detailNaming("branch_summary"));
		cases.add(body(APPEND, "{\"type\":\"message\",\"id\":\"cafebabe\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}")
			.expect(400, "id", "invalid-entry"));
		cases.add(body(APPEND, "parentId = first", fixture -> "{\"type\":\"message\",\"parentId\":\"" + fixture.first()
				+ "\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}")
			.expect(400, "parentId", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"message\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}")
			.expect(400, "parentId", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"message\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}")
			.expect(400, "timestamp", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"message\"}").expect(400, "message", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"message\",\"message\":\"hi\"}").expect(400, "message", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"message\",\"message\":{\"content\":\"hi\"}}").expect(400, "message.role",
				"invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"message\",\"message\":{\"role\":5,\"content\":\"hi\"}}").expect(400,
				"message.role", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"model_change\"}").expect(400, "model", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"mode_change\",\"mode\":5}").expect(400, "mode", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"ttsr_injection\",\"injectedRules\":[1]}").expect(400, "injectedRules",
				"invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"custom\",\"customType\":\"\"}").expect(400, "customType", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"custom_message\",\"customType\":\"x\",\"content\":5,\"display\":true}")
			.expect(400, "content", "invalid-entry"));
		cases.add(body(APPEND, "{\"type\":\"label\",\"targetId\":\"deadbeef\",\"label\":\"x\"}").expect(404, null,
				"entry-not-found"));
		cases.add(body(APPEND, "{\"type\":\"compaction\",\"summary\":\"s\",\"firstKeptEntryId\":\"deadbeef\",\"tokensBefore\":1}")
			.expect(400, "firstKeptEntryId", "invalid-entry"));
		cases.add(body(APPEND, "[1]").expect(400, "[0]", "invalid-entry"));
		cases.add(body(APPEND, "[" + USER + ",[]]").expect(400, "[1]", "invalid-entry"));
		cases.add(body(APPEND, "[" + USER + "," + USER + ",{\"type\":\"bogus\"}]").expect(400, "[2].type",
				"invalid-entry"));
		cases.add(body(APPEND, "[" + USER + "," + USER + ",{\"type\":\"message\",\"id\":\"x\",\"message\":{\"role\":\"user\"}}]")
			.expect(400, "[2].id", "invalid-entry"));
		cases.add(body(APPEND, "[" + USER + "," + USER + ",{\"type\":\"label\",\"targetId\":\"deadbeef\"}]").expect(404,
				null, "entry-not-found"));
		// POST /sessions/import
		cases.add(body(IMPORT, "").expect(400, null, "invalid-session-file", "bad-request"));
		cases.add(body(IMPORT, "not json at all\n").expect(400, null, "invalid-session-file"));
		cases.add(body(IMPORT, USER + "\n").expect(400, null, "invalid-session-file"));
		cases.add(body(IMPORT, "{\"type\":\"session\",\"version\":3,\"timestamp\":\"2025-11-20T23:33:01.550Z\"}\n")
			.expect(400, null, "invalid-session-file"));
		for (String hostile : List.of("../escape", "../../escape", "/abs/escape", "a/b", "..", ".", "x\\y", "x\ny",
				"a".repeat(200), "", " x", "x\u0000y")) {
			cases.add(body(IMPORT, importFile(hostile, "hi")).expect(400, null, "invalid-session-file", "invalid-id"));
		}
		cases.add(body(IMPORT, importFile(null, "hi").replace("\"id\":null", "\"id\":5")).expect(400, null,
				"invalid-session-file", "invalid-id"));
		cases.add(body(IMPORT, importFile("imported-torn", "hi") + "{\"type\":\"message\",\"id\":\n").expect(400, null,
				"invalid-session-file"));
		cases.add(body(IMPORT, "the fixture's own id", fixture -> importFile(fixture.sessionId(), "overwrite me"))
			.expect(409, null, "session-exists"));
		cases.add(new BodyCase(IMPORT, JSON, "a file as application/json",
				fixture -> bytes(importFile("imported-as-json", "hi"))).expect(415, null, "unsupported-media-type"));
		return cases.stream();
	}

	static BodyCase body(Operation operation, String body) {
		return new BodyCase(operation, operation.contentType(), body, fixture -> bytes(body));
	}

	static BodyCase body(Operation operation, String shown, Function<Fixture, String> body) {
		return new BodyCase(operation, operation.contentType(), shown, fixture -> bytes(body.apply(fixture)));
	}

	// ---- plumbing --------------------------------------------------------------------------------------------------

	/** A session with two entries, the leaf on the second. */
	record Fixture(String sessionId, String first, String second) {
	}

	Fixture fixture() {
		String sessionId = ApiSessions.create(this.client);
		String first = ApiSessions.appendUser(this.client, sessionId, "one");
		String second = ApiSessions.appendAssistant(this.client, sessionId, "two");
		return new Fixture(sessionId, first, second);
	}

	/** One operation of docs/API.md: its path with {@code {sid}} and {@code {eid}}, and a valid body where it takes one. */
	record Operation(String method, String path, @Nullable String contentType,
			@Nullable Function<Fixture, String> body) {

		static Operation of(String method, String path) {
			return new Operation(method, path, null, null);
		}

		static Operation of(String method, String path, String contentType, Function<Fixture, String> body) {
			return new Operation(method, path, contentType, body);
		}

		boolean uses(String variable) {
			return this.path.contains("{" + variable + "}");
		}

		/** The operation as a valid request on the fixture. */
		Request request(Fixture fixture) {
			return template(fixture).with("sid", fixture.sessionId()).with("eid", fixture.first());
		}

		/** The operation on the fixture but with one path variable as given (raw, already encoded). */
		Request request(Fixture fixture, String variable, String rawValue) {
			assertThat(uses(variable)).isTrue();
			return template(fixture).with(variable, rawValue).with("sid", fixture.sessionId()).with("eid", fixture.first());
		}

		private Request template(Fixture fixture) {
			return new Request(this.method, this.path, this.contentType,
					(this.body != null) ? bytes(this.body.apply(fixture)) : null, Map.of(), false);
		}

		/** A valid body of at least {@code size} bytes: JSON padded with whitespace, a file with a long message. */
		byte[] padded(Fixture fixture, int size) {
			if (this.contentType.equals(NDJSON)) {
				return bytes(importFile("imported-" + imports.incrementAndGet(), "x".repeat(size)));
			}
			String json = this.body.apply(fixture);
			return bytes(json.substring(0, json.length() - 1) + " ".repeat(size) + "}");
		}

		@Override
		public String toString() {
			return this.method + " " + this.path;
		}

	}

	record Request(String method, String path, @Nullable String contentType, byte @Nullable [] body,
			Map<String, String> headers, boolean chunked) {

		static Request get(String path) {
			return new Request("GET", path, null, null, Map.of(), false);
		}

		Request with(String variable, String rawValue) {
			return new Request(this.method, this.path.replace("{" + variable + "}", rawValue), this.contentType,
					this.body, this.headers, this.chunked);
		}

		Request header(String name, String value) {
			Map<String, String> headers = new java.util.LinkedHashMap<>(this.headers);
			headers.put(name, value);
			return new Request(this.method, this.path, this.contentType, this.body, headers, this.chunked);
		}

		@Override
		public String toString() {
			String body = (this.body != null) ? new String(this.body, StandardCharsets.UTF_8) : "";
			return this.method + " " + this.path + " " + this.headers + (this.chunked ? " (chunked)" : "")
					+ ((this.contentType != null) ? " " + this.contentType : "") + " "
					+ ((body.length() > 300) ? body.substring(0, 300) + "… (" + this.body.length + " bytes)" : body);
		}

	}

	/** A broken body for an operation and what the server must answer. */
	record BodyCase(Operation operation, String contentType, String shown, Function<Fixture, byte[]> body, int status,
			@Nullable String field, @Nullable String detailWord, List<String> types) {

		BodyCase(Operation operation, String contentType, String shown, Function<Fixture, byte[]> body) {
			this(operation, contentType, shown, body, 0, null, null, List.of());
		}

		/** The status, the field the problem names ({@code null}: none asserted) and the types accepted. */
		BodyCase expect(int status, @Nullable String field, String... types) {
			return new BodyCase(this.operation, this.contentType, this.shown, this.body, status, field,
					(field != null) ? nameInDetail(field) : null, List.of(types));
		}

		/** {@code [2].message.role} is spoken of as {@code message.role} (of entry 2), {@code [1]} as {@code 1}. */
		private static String nameInDetail(String field) {
			String name = field.replaceFirst("^\\[\\d+\\]\\.?", "");
			return name.isEmpty() ? field.substring(1, field.length() - 1) : name;
		}

		/** A word the detail must hold, where it rightly speaks of something other than the field's name. */
		BodyCase detailNaming(String word) {
			return new BodyCase(this.operation, this.contentType, this.shown, this.body, this.status, this.field, word,
					this.types);
		}

		@Override
		public String toString() {
			String text = (this.shown.length() > 120) ? this.shown.substring(0, 120) + "…" : this.shown;
			return this.operation + " " + text.replace("\n", "\\n").replace("\u0000", "\\0") + " → " + this.status;
		}

	}

	/** What the server saw: the raw request URI and how the body came. */
	record Seen(String uri, long contentLength, @Nullable String transferEncoding) {
	}

	record Answer(Request request, int status, java.net.http.HttpHeaders headers, String body, @Nullable Seen seen) {

		JsonNode problem() {
			return Json.MAPPER.readTree(this.body);
		}

		String describe() {
			return this.request + "\n  answered " + this.status + " " + this.headers.map() + "\n  " + this.body;
		}

	}

	Answer send(Request request) {
		String probe = Integer.toString(probes.incrementAndGet());
		URI uri = URI.create("http://localhost:" + this.port + request.path());
		assertThat(uri.getRawPath() + ((uri.getRawQuery() != null) ? "?" + uri.getRawQuery() : ""))
			.as("the path is sent as written, still encoded")
			.isEqualTo(request.path());
		BodyPublisher publisher = BodyPublishers.noBody();
		if (request.body() != null) {
			byte[] body = request.body();
			publisher = request.chunked() ? BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
					: BodyPublishers.ofByteArray(body);
		}
		HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
			.timeout(Duration.ofSeconds(30))
			.header(PROBE, probe)
			.method(request.method(), publisher);
		if (request.contentType() != null) {
			builder.header("Content-Type", request.contentType());
		}
		request.headers().forEach(builder::header);
		try {
			HttpResponse<String> response = http.send(builder.build(), BodyHandlers.ofString());
			return new Answer(request, response.statusCode(), response.headers(), response.body(), seen.remove(probe));
		}
		catch (IOException ex) {
			throw new AssertionError(request + " failed: " + ex, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError(ex);
		}
	}

	static void assertProblem(Answer answer, int status, String... types) {
		assertProblemIn(answer, Map.of(status, Arrays.asList(types)));
	}

	static void assertProblemIn(Answer answer, Map<Integer, List<String>> typesByStatus) {
		assertThat(answer.status()).as(answer.describe()).isIn(typesByStatus.keySet());
		assertThat(answer.headers().firstValue("Content-Type")).as(answer.describe())
			.hasValueSatisfying(contentType -> assertThat(
					MediaType.parseMediaType(contentType).equalsTypeAndSubtype(MediaType.APPLICATION_PROBLEM_JSON))
				.as(answer.describe())
				.isTrue());
		JsonNode problem = answer.problem();
		List<String> types = typesByStatus.get(answer.status())
			.stream()
			.map(slug -> ProblemType.BASE_URI + slug)
			.toList();
		assertThat(problem.path("type").asString()).as(answer.describe()).isIn(types);
		assertThat(problem.path("title").asString()).as(answer.describe()).isNotBlank();
		assertThat(problem.path("status").asInt()).as(answer.describe()).isEqualTo(answer.status());
		assertThat(problem.path("detail").asString()).as(answer.describe()).isNotBlank();
	}

	static Map<String, String> files() {
		return ApiSessions.files(root);
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** A version-3 session file with one user message. */
	static String importFile(@Nullable String id, String content) {
		return "{\"type\":\"session\",\"version\":3,\"id\":" + Json.MAPPER.writeValueAsString(id)
				+ ",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/work\"}\n"
				+ "{\"type\":\"message\",\"id\":\"a1b2c3d4\",\"parentId\":null,\"timestamp\":\"2025-11-20T23:33:02.000Z\","
				+ "\"message\":{\"role\":\"user\",\"content\":" + Json.MAPPER.writeValueAsString(content) + "}}\n";
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class RequestRecording {

		/** Notes the raw request URI and the body's framing of every probed request, before anything else runs. */
		@Bean
		FilterRegistrationBean<Filter> hostileRequestRecorder() {
			Filter filter = (request, response, chain) -> {
				HttpServletRequest http = (HttpServletRequest) request;
				String probe = http.getHeader(PROBE);
				if (probe != null) {
					String query = (http.getQueryString() != null) ? "?" + http.getQueryString() : "";
					seen.put(probe, new Seen(http.getRequestURI() + query, http.getContentLengthLong(),
							http.getHeader("Transfer-Encoding")));
				}
				chain.doFilter(request, response);
			};
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(filter);
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

	}

}

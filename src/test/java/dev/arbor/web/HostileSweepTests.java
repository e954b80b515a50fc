package dev.arbor.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import dev.arbor.session.Json;
import dev.arbor.web.SweepCase.Expect;
import dev.arbor.web.SweepCase.Mutation;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A generated sweep of hostile requests over every operation of the OpenAPI document the application serves: bad
 * ids in paths, query parameters of the wrong form, odd headers and framings, bodies derived from each request
 * schema and then broken. Every request must meet {@link SweepRun}'s rules: no 5xx, errors as problem documents,
 * files changed only by a 2xx, the invalid refused. The cases are generated deterministically (a fixed seed picks
 * the random combinations), so a failure replays. The tests after the sweep single out the defects already known
 * before it was written, so that each shows by name until it is fixed.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class HostileSweepTests {

	/** {@code arbor.api.max-request-bytes} here: small, so that huge bodies within it stay cheap. */
	static final int LIMIT = 64 * 1024;

	static final long SEED = 13L;

	static final int COMBINATIONS_PER_OPERATION = 15;

	static final int MINIMUM_REQUESTS = 2000;

	/** Above the storage directory, so that a file written outside it shows up in the snapshot too. */
	@TempDir
	static Path root;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", () -> root.resolve("storage").toString());
		registry.add("arbor.api.max-request-bytes", () -> "64KB");
		// Streams the sweep opens and drops are noticed at the next heartbeat.
		registry.add("arbor.events.heartbeat", () -> "250ms");
	}

	@LocalServerPort
	int port;

	List<ApiOperation> operations;

	SweepWorld world;

	SweepRun run;

	@BeforeEach
	void seed() {
		SweepWire.Answer document = SweepWire.send(this.port, SweepRequest.of("GET", "/v3/api-docs"));
		assertThat(document.status()).isEqualTo(200);
		this.operations = ApiOperation.all(Json.MAPPER.readTree(document.body()));
		this.world = new SweepWorld(this.port);
		this.run = new SweepRun(this.port, root, this.world);
	}

	@Test
	void everyOperationWhenSweptWithHostileInputShouldFailCleanlyAndChangeNothing() throws IOException {
		assertThat(this.operations).hasSizeGreaterThanOrEqualTo(28);
		List<SweepCase> cases = cases(this.operations, new Random(SEED));
		cases.forEach(this.run::check);
		Files.createDirectories(Path.of("target"));
		Files.writeString(Path.of("target", "hostile-sweep-report.txt"), this.run.report());
		assertThat(this.run.requests()).isGreaterThanOrEqualTo(MINIMUM_REQUESTS);
		assertThat(this.run.requestsByOperation().keySet())
			.containsExactlyInAnyOrderElementsOf(this.operations.stream().map(ApiOperation::id).toList());
		assertThat(this.run.violations()).as(this.run.report()).isEmpty();
	}

	/** Every operation's cases: its valid request, each mutation alone, then random combinations of them. */
	static List<SweepCase> cases(List<ApiOperation> operations, Random random) {
		List<SweepCase> cases = new ArrayList<>();
		Set<String> pathsSwept = new HashSet<>();
		for (ApiOperation operation : operations) {
			List<Mutation> combinable = new ArrayList<>();
			combinable.addAll(SweepMutations.path(operation));
			combinable.addAll(SweepMutations.query(operation));
			combinable.addAll(SweepMutations.headers(operation));
			if (operation.mediaType() != null) {
				combinable.addAll(SweepBodies.of(operation, LIMIT));
			}
			List<Mutation> alone = new ArrayList<>(combinable);
			if (operation.mediaType() != null) {
				alone.addAll(SweepMutations.framings(operation));
			}
			if (pathsSwept.add(operation.path())) {
				Set<String> declared = operations.stream()
					.filter(other -> other.path().equals(operation.path()))
					.map(ApiOperation::method)
					.collect(Collectors.toSet());
				alone.addAll(SweepMutations.methods(operation, declared));
			}
			cases.add(new SweepCase(operation, List.of()));
			alone.forEach(mutation -> cases.add(new SweepCase(operation, List.of(mutation))));
			Map<String, List<Mutation>> byDimension = combinable.stream()
				.collect(Collectors.groupingBy(Mutation::dimension, TreeMap::new, Collectors.toList()));
			List<String> dimensions = new ArrayList<>(byDimension.keySet());
			for (int i = 0; i < COMBINATIONS_PER_OPERATION; i++) {
				Collections.shuffle(dimensions, random);
				List<Mutation> combination = new ArrayList<>();
				for (String dimension : dimensions.subList(0, Math.min(dimensions.size(), 2 + random.nextInt(2)))) {
					List<Mutation> choices = byDimension.get(dimension);
					combination.add(choices.get(random.nextInt(choices.size())));
				}
				cases.add(new SweepCase(operation, combination));
			}
		}
		return cases;
	}

	// ---- the defects known before the sweep, by name ---------------------------------------------------------------

	/** {@code wildcard-content-type}: a wildcard is no media type a body can be read as. */
	@Test
	void jsonBodyWhenContentTypeIsAWildcardShouldReturn415AndChangeNothing() {
		SoftAssertions softly = new SoftAssertions();
		for (ApiOperation operation : jsonOperations()) {
			for (String wildcard : List.of("*/*", "application/*")) {
				SweepWire.Answer answer = this.run.check(new SweepCase(operation, List.of(Mutation.of("header",
						"Content-Type " + wildcard, Expect.REFUSED, (world, draft) -> draft.header("Content-Type", wildcard)))));
				softly.assertThat(SweepRun.outcome(answer)).as(operation + " with " + wildcard)
					.isEqualTo("415 unsupported-media-type");
			}
		}
		softly.assertThat(this.run.violations()).as(this.run.report()).isEmpty();
		softly.assertAll();
	}

	/** {@code huge-exponent}: a number no parser holds is malformed, not an internal error. */
	@Test
	void appendWhenANumberHasAnExponentBeyondIntShouldReturn400MalformedJsonAndChangeNothing() {
		ApiOperation append = operation("appendEntries");
		SoftAssertions softly = new SoftAssertions();
		for (String number : List.of(SweepBodies.HUGE_EXPONENT, "-1e-2147483649", "1e9999999999")) {
			for (String body : List.of("{\"type\":\"message\",\"n\":" + number
					+ ",\"message\":{\"role\":\"user\",\"content\":\"x\"}}",
					"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\",\"usage\":{\"input\":" + number
							+ "}}}",
					"[" + SweepWorld.user("a") + ",{\"type\":\"custom\",\"customType\":\"x\",\"data\":[" + number + "]}]")) {
				SweepWire.Answer answer = this.run.check(new SweepCase(append,
						List.of(Mutation.of("body", "a number " + number, Expect.REFUSED, (world, draft) -> draft.body(body)))));
				softly.assertThat(SweepRun.outcome(answer)).as(body).isEqualTo("400 malformed-json");
			}
		}
		softly.assertThat(this.run.violations()).as(this.run.report()).isEmpty();
		softly.assertAll();
	}

	/**
	 * {@code hostile-entry-ids}: ids read from files are kept whatever their form, so every answer about such a session
	 * must still be whole: no 5xx, an {@code ETag} that is an entity tag, and that tag, sent back as {@code If-Match},
	 * matching the leaf.
	 */
	@Test
	void sessionWhenImportedWithHostileEntryIdsShouldBeReadAndWrittenWithItsOwnETag() {
		SoftAssertions softly = new SoftAssertions();
		List<ApiOperation> reads = this.operations.stream()
			.filter(operation -> operation.method().equals("GET") && operation.pathVariables().contains("sessionId"))
			.toList();
		for (Map.Entry<String, String> id : SweepBodies.HOSTILE_ENTRY_IDS.entrySet()) {
			String sessionId = this.world.imported(id.getValue());
			Mutation hostile = Mutation.of("path", "a session imported with an entry id with " + id.getKey(), Expect.ANY,
					(world, draft) -> {
						draft.variables.put("sessionId", sessionId);
						if (draft.variables.containsKey("entryId")) {
							draft.variables.put("entryId", SweepMutations.percentEncoded(id.getValue()));
						}
					});
			reads.forEach(read -> this.run.check(new SweepCase(read, List.of(hostile))));
			SweepWire.Answer leaf = this.run.check(new SweepCase(operation("getLeaf"), List.of(hostile)));
			softly.assertThat(leaf.status()).as("the leaf of " + id.getKey()).isEqualTo(200);
			String etag = leaf.header("ETag");
			if (etag != null) {
				SweepWire.Answer append = this.run.check(new SweepCase(operation("appendEntries"), List.of(hostile,
						Mutation.of("header", "If-Match the ETag just read", Expect.ANY,
								(world, draft) -> draft.header("If-Match", etag)))));
				softly.assertThat(append.status()).as("an append with If-Match %s, read from %s", etag, id.getKey())
					.isEqualTo(201);
			}
		}
		softly.assertThat(this.run.violations()).as(this.run.report()).isEmpty();
		softly.assertAll();
	}

	/** An append and a delete of the same session, at once, end as one of them or a 404, never a 5xx. */
	@Test
	void appendRacingADeleteShouldNeverAnswerAServerError() throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(5);
		List<String> findings = new ArrayList<>();
		try {
			for (int round = 0; round < 25; round++) {
				String sessionId = Json.MAPPER.readTree(SweepWire.send(this.port, SweepRequest.of("POST", "/sessions")
					.header("Content-Type", "application/json")
					.body(SweepBodies.bytes("{}"))).body()).get("id").asString();
				CountDownLatch start = new CountDownLatch(1);
				List<Future<SweepWire.Answer>> answers = new ArrayList<>();
				for (int i = 0; i < 5; i++) {
					SweepRequest request = (i == 2) ? SweepRequest.of("DELETE", "/sessions/" + sessionId)
							: SweepRequest.of("POST", "/sessions/" + sessionId + "/entries")
								.header("Content-Type", "application/json")
								.body(SweepBodies.bytes(SweepWorld.user("racing " + i)));
					answers.add(executor.submit(() -> {
						start.await();
						return SweepWire.send(this.port, request);
					}));
				}
				start.countDown();
				for (Future<SweepWire.Answer> answer : answers) {
					String outcome = SweepRun.outcome(answer.get());
					if (!outcome.startsWith("2") && !outcome.equals("404 session-not-found")) {
						findings.add("round " + round + ": " + answer.get());
					}
				}
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(findings).isEmpty();
	}

	/**
	 * {@code not-implemented}: what the container does not implement is refused as such, not reported as an internal
	 * error.
	 */
	@Test
	void requestWhenMethodIsConnectOrTransferCodingIsUnknownShouldNotBeAnInternalError() {
		for (ApiOperation operation : List.of(operation("getSession"), operation("appendEntries"),
				operation("importSession"))) {
			this.run.check(new SweepCase(operation, List.of(Mutation.of("method", "CONNECT", Expect.UNSUPPORTED,
					(world, draft) -> draft.method = "CONNECT"))));
		}
		for (ApiOperation operation : List.of(operation("appendEntries"), operation("importSession"),
				operation("moveLeaf"))) {
			this.run.check(new SweepCase(operation, List.of(Mutation.of("framing", "Transfer-Encoding gzip",
					Expect.UNSUPPORTED, (world, draft) -> draft.header("Transfer-Encoding", "gzip")))));
		}
		assertThat(this.run.violations()).as(this.run.report()).isEmpty();
	}

	/**
	 * {@code loose-parameters}: a boolean is {@code true} or {@code false} and a limit is decimal, once; anything else
	 * is refused.
	 */
	@Test
	void parameterWhenBooleanOrLimitIsNotStrictlyWrittenShouldReturn400NamingIt() {
		SoftAssertions softly = new SoftAssertions();
		Map<String, List<List<String>>> queries = Map.of("importSession",
				List.of(List.of("skipMalformedLines=yes"), List.of("skipMalformedLines=1"), List.of("skipMalformedLines="),
						List.of("skipMalformedLines=true", "skipMalformedLines=true")),
				"listSessions", List.of(List.of("limit=0x10")), "listEntries", List.of(List.of("limit=0x10")),
				"getTreeRows", List.of(List.of("limit=0x10")));
		queries.forEach((operationId, variants) -> {
			for (List<String> query : variants) {
				SweepWire.Answer answer = this.run.check(new SweepCase(operation(operationId), List.of(Mutation.of("query",
						String.join("&", query), Expect.REFUSED, (world, draft) -> draft.query.addAll(query)))));
				softly.assertThat(SweepRun.outcome(answer)).as(operationId + " " + query).isEqualTo("400 invalid-parameter");
				JsonNode problem = answer.json();
				softly.assertThat((problem != null) ? problem.path("parameter").asString("") : "")
					.as(operationId + " " + query)
					.isEqualTo(query.get(0).substring(0, query.get(0).indexOf('=')));
			}
		});
		softly.assertThat(this.run.violations()).as(this.run.report()).isEmpty();
		softly.assertAll();
	}

	private List<ApiOperation> jsonOperations() {
		return this.operations.stream().filter(ApiOperation::hasJsonBody).toList();
	}

	private ApiOperation operation(String id) {
		return this.operations.stream().filter(operation -> operation.id().equals(id)).findFirst().orElseThrow();
	}

}

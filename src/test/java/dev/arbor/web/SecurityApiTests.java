package dev.arbor.web;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code arbor.security.*} over HTTP: API keys, CORS for browser frontends, security headers. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class SecurityApiTests {

	private static final String KEY = "k3y-for-tests";

	private static final String ALLOWED = "https://app.example.com";

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.security.api-keys", () -> "other-key," + KEY);
		registry.add("arbor.security.cors.allowed-origins", () -> ALLOWED);
	}

	@Autowired
	RestTestClient client;

	@LocalServerPort
	int port;

	@Test
	void requestsWithoutAKeyShouldBe401AndWriteNothing() {
		String sessionId = create();
		Map<String, String> before = ApiSessions.files(storage);
		for (RestTestClient.RequestHeadersSpec<?> request : List.of(
				this.client.post().uri("/sessions").contentType(MediaType.APPLICATION_JSON).body("{}"),
				this.client.post()
					.uri("/sessions/{id}/entries", sessionId)
					.contentType(MediaType.APPLICATION_JSON)
					.body(HostileInputTests.USER),
				this.client.delete().uri("/sessions/{id}", sessionId),
				this.client.get().uri("/sessions/{id}", sessionId), this.client.get().uri("/actuator/info"),
				this.client.get().uri("/actuator/prometheus"))) {
			JsonNode problem = ApiSessions.problem(request.exchange()
				.expectHeader()
				.valueEquals(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"arbor\""), HttpStatus.UNAUTHORIZED,
					"unauthorized");
			assertThat(problem.get("detail").asString()).contains("Authorization: Bearer");
		}
		assertThat(ApiSessions.files(storage)).isEqualTo(before);
	}

	@ParameterizedTest
	@ValueSource(strings = { "Bearer wrong", "Bearer " + KEY + "x", "Bearer", "Basic " + KEY, KEY, "bearer  " })
	void requestsWithAWrongKeyShouldBe401AndWriteNothing(String authorization) {
		String sessionId = create();
		Map<String, String> before = ApiSessions.files(storage);
		ApiSessions.problem(this.client.post()
			.uri("/sessions/{id}/entries", sessionId)
			.header(HttpHeaders.AUTHORIZATION, authorization)
			.contentType(MediaType.APPLICATION_JSON)
			.body(HostileInputTests.USER)
			.exchange()
			.expectHeader()
			.valueEquals(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"arbor\", error=\"invalid_token\""),
				HttpStatus.UNAUTHORIZED, "unauthorized");
		assertThat(ApiSessions.files(storage)).isEqualTo(before);
	}

	@Test
	void theRightKeyShouldWorkAndAnyConfiguredKeyDoes() {
		String sessionId = create();
		for (String key : List.of(KEY, "other-key")) {
			this.client.post()
				.uri("/sessions/{id}/entries", sessionId)
				.header(HttpHeaders.AUTHORIZATION, "Bearer " + key)
				.contentType(MediaType.APPLICATION_JSON)
				.body(HostileInputTests.USER)
				.exchange()
				.expectStatus()
				.isCreated();
		}
		this.client.get()
			.uri("/actuator/prometheus")
			.header(HttpHeaders.AUTHORIZATION, "bearer " + KEY)
			.exchange()
			.expectStatus()
			.isOk();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness",
			"/v3/api-docs", "/v3/api-docs.yaml", "/v3/api-docs/swagger-config", "/swagger-ui/index.html", "/",
			"/index.html", "/explorer/main.js", "/explorer/explorer.css", "/favicon.svg" })
	void healthTheApiDocsAndTheExplorersFilesShouldStayOpen(String path) {
		this.client.get().uri(path).exchange().expectStatus().isOk();
	}

	@Test
	void withApiKeysTheDocumentShouldAskForTheBearerKeyEverywhere() {
		JsonNode document = ApiDocument.fetch(this.port).root();
		assertThat(document.at("/components/securitySchemes/apiKey/scheme").asString()).isEqualTo("bearer");
		assertThat(document.at("/security/0").has("apiKey")).isTrue();
	}

	@Test
	void pathsThatOnlyLookOpenShouldNeedAKey() {
		for (String path : List.of("/actuator/healthz", "/actuator/health/../info", "/v3/api-docs/..%2F..%2Fsessions",
				"/swagger-ui/../sessions", "/actuator/health;x", "/explorer/../sessions", "/explorer/main.js/../../sessions",
				"/index.html/../sessions", "/explorer/%2e%2e/sessions")) {
			assertThat(RawHttp.get(this.port, path, Map.of()).status()).as(path).isIn(400, 401);
		}
	}

	@Test
	void theEventStreamsShouldTakeTheKeyAsAccessTokenAndNothingElseShould() throws Exception {
		String sessionId = create();
		try (SseClient events = SseClient.open(this.port, "/sessions/" + sessionId + "/events?access_token=" + KEY,
				null)) {
			assertThat(events).isNotNull();
		}
		assertThat(RawHttp.get(this.port, "/events?access_token=wrong", Map.of()).status()).isEqualTo(401);
		assertThat(RawHttp.get(this.port, "/sessions/" + sessionId + "?access_token=" + KEY, Map.of()).status())
			.isEqualTo(401);
	}

	@Test
	void aPreflightFromAnAllowedOriginShouldSucceedWithoutAKey() {
		this.client.options()
			.uri("/sessions")
			.header(HttpHeaders.ORIGIN, ALLOWED)
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "POST")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "authorization,content-type,if-match")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, ALLOWED)
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS,
					headers -> assertThat(headers).containsIgnoringCase("authorization").containsIgnoringCase("if-match"));
	}

	@Test
	void aPreflightForAnAppendUnderAnIdempotencyKeyShouldAllowTheKeyAndExposeTheReplayHeader() {
		this.client.options()
			.uri("/sessions/{id}/entries", "s-1")
			.header(HttpHeaders.ORIGIN, ALLOWED)
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "POST")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "authorization,content-type,idempotency-key")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS,
					headers -> assertThat(headers).containsIgnoringCase("idempotency-key"));
		String sessionId = create();
		this.client.method(HttpMethod.GET)
			.uri("/sessions/{id}", sessionId)
			.header(HttpHeaders.ORIGIN, ALLOWED)
			.header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY)
			.exchange()
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS,
					exposed -> assertThat(exposed).contains("Idempotent-Replayed"));
	}

	@Test
	void aPreflightFromAnotherOriginShouldFail() {
		ApiSessions.problem(this.client.options()
			.uri("/sessions")
			.header(HttpHeaders.ORIGIN, "https://evil.example.com")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "POST")
			.exchange()
			.expectHeader()
			.doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN), HttpStatus.FORBIDDEN, "cors-rejected");
	}

	@Test
	void aCrossOriginRequestFromAnAllowedOriginShouldExposeTheETag() {
		String sessionId = create();
		this.client.method(HttpMethod.GET)
			.uri("/sessions/{id}", sessionId)
			.header(HttpHeaders.ORIGIN, ALLOWED)
			.header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, ALLOWED)
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, exposed -> assertThat(exposed).contains("ETag"));
	}

	@Test
	void theEventStreamsShouldAnswerAnAllowedOriginToo() {
		String sessionId = create();
		this.client.options()
			.uri("/sessions/{id}/events", sessionId)
			.header(HttpHeaders.ORIGIN, ALLOWED)
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "last-event-id,authorization")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, ALLOWED);
		RawHttp.Answer stream = RawHttp.get(this.port, "/sessions/" + sessionId + "/events?access_token=" + KEY,
				Map.of("Origin", ALLOWED, "Accept", "text/event-stream"));
		assertThat(stream.status()).isEqualTo(200);
		assertThat(stream.head()).containsIgnoringCase("Access-Control-Allow-Origin: " + ALLOWED);
	}

	@Test
	void everyAnswerShouldCarryTheSecurityHeaders() {
		for (String path : List.of("/sessions", "/actuator/health")) {
			this.client.get()
				.uri(path)
				.exchange()
				.expectHeader()
				.valueEquals("X-Content-Type-Options", "nosniff")
				.expectHeader()
				.valueEquals("X-Frame-Options", "DENY")
				.expectHeader()
				.valueEquals("Referrer-Policy", "no-referrer")
				.expectHeader()
				.valueEquals("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
		}
	}

	@Test
	void theExplorersPageShouldHaveAPolicyThatAllowsOnlyItsOwnScriptsStylesAndApi() {
		this.client.get()
			.uri("/")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("Content-Security-Policy",
					"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
							+ "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
			.expectHeader()
			.valueEquals("X-Frame-Options", "DENY")
			.expectHeader()
			.valueEquals(HttpHeaders.CACHE_CONTROL, "no-cache");
	}

	private String create() {
		return ApiSessions.body(this.client.post()
			.uri("/sessions")
			.header(HttpHeaders.AUTHORIZATION, "Bearer " + KEY)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"cwd\":\"/work\"}")
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString();
	}

}

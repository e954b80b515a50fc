package dev.arbor.events;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Webhooks (docs/API.md#hooks-and-webhooks) against a real HTTP server on a free local port: what is POSTed and how it
 * is signed, how answers are read, and that a slow server costs the webhook's timeout and no more.
 */
class WebhookTests {

	private static final String SECRET = "s3cr3t-k\u00e9y";

	private static final Set<EventType> EVENTS = Set.of(EventType.SESSION_BEFORE_TREE,
			EventType.SESSION_BEFORE_BRANCH);

	/** Stored lines as a file holds them: unknown fields, escapes and number forms are kept byte for byte. */
	private static final EntryLine FIRST = line("{\"type\":\"message\",\"id\":\"e1\",\"parentId\":null,"
			+ "\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"h\\u00e9llo "
			+ "\\\"quoted\\\" \u00fc\"},\"zUnknown\":[1,2.50,1e400,{\"b\":null,\"a\":true}]}");

	private static final EntryLine SECOND = line("{\"type\":\"custom\",\"id\":\"e2\",\"parentId\":\"e1\","
			+ "\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"customType\":\"x\",\"data\":{\"deep\":[[],{}]}}");

	private static final TreePreparation TREE = new TreePreparation("s-1", "target-1", "e2", null,
			List.of(FIRST, SECOND), true, "focus on \"files\"");

	private HttpServer server;

	private ExecutorService serverThreads;

	private final LinkedBlockingQueue<Received> requests = new LinkedBlockingQueue<>();

	private volatile Responder responder = (exchange) -> respond(exchange, 204, null);

	/** Handlers that stall wait on this; released after each test. */
	private final CountDownLatch release = new CountDownLatch(1);

	@BeforeEach
	void startServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.serverThreads = Executors.newCachedThreadPool();
		this.server.setExecutor(this.serverThreads);
		this.server.createContext("/hook", (exchange) -> {
			try {
				byte[] body;
				try (InputStream in = exchange.getRequestBody()) {
					body = in.readAllBytes();
				}
				this.requests.add(new Received(exchange.getRequestMethod(), exchange.getRequestHeaders(), body));
				this.responder.respond(exchange);
			}
			finally {
				exchange.close();
			}
		});
		this.server.start();
	}

	@AfterEach
	void stopServer() {
		this.release.countDown();
		this.server.stop(0);
		this.serverThreads.shutdownNow();
	}

	@Test
	void beforeTreeShouldPostTheEventSessionAndPreparationWithTheFullStoredEntries() throws Exception {
		assertThat(webhook(SECRET).beforeTree(TREE)).isEqualTo(HookAnswer.NONE);
		Received request = received();
		assertThat(request.method()).isEqualTo("POST");
		assertThat(request.headers().getFirst("Content-Type")).isEqualTo("application/json");
		assertThat(request.headers().getFirst("X-Arbor-Event")).isEqualTo("session_before_tree");
		String body = new String(request.body(), StandardCharsets.UTF_8);
		// The entries go out as their stored bytes, not re-serialized.
		assertThat(body).contains("\"entriesToSummarize\":[" + FIRST.json() + "," + SECOND.json() + "]");
		ObjectNode json = Json.parseObject(request.body());
		assertThat(json.get("event").asString()).isEqualTo("session_before_tree");
		assertThat(json.get("sessionId").asString()).isEqualTo("s-1");
		JsonNode preparation = json.get("preparation");
		assertThat(preparation.isObject()).isTrue();
		assertThat(preparation.get("targetId").asString()).isEqualTo("target-1");
		assertThat(preparation.get("oldLeafId").asString()).isEqualTo("e2");
		assertThat(preparation.has("commonAncestorId")).isTrue();
		assertThat(preparation.get("commonAncestorId").isNull()).isTrue();
		assertThat(preparation.get("userWantsSummary").isBoolean()).isTrue();
		assertThat(preparation.get("userWantsSummary").asBoolean()).isTrue();
		assertThat(preparation.get("customInstructions").asString()).isEqualTo("focus on \"files\"");
		JsonNode entries = preparation.get("entriesToSummarize");
		assertThat(entries.isArray()).isTrue();
		assertThat(entries.size()).isEqualTo(2);
		assertThat(entries.get(0)).isEqualTo(FIRST.toNode());
		assertThat(entries.get(1)).isEqualTo(SECOND.toNode());
	}

	@Test
	void beforeTreeWithNullFieldsAndNoEntriesShouldPostThemAsNullAndAnEmptyArray() throws Exception {
		TreePreparation preparation = new TreePreparation("s-1", "t", null, null, List.of(), false, null);
		webhook(null).beforeTree(preparation);
		ObjectNode json = Json.parseObject(received().body());
		JsonNode sent = json.get("preparation");
		assertThat(sent.get("oldLeafId").isNull()).isTrue();
		assertThat(sent.get("commonAncestorId").isNull()).isTrue();
		assertThat(sent.get("customInstructions").isNull()).isTrue();
		assertThat(sent.get("userWantsSummary").asBoolean()).isFalse();
		assertThat(sent.get("entriesToSummarize").isArray()).isTrue();
		assertThat(sent.get("entriesToSummarize").size()).isZero();
	}

	@Test
	void beforeBranchShouldPostTheEntryId() throws Exception {
		assertThat(webhook(SECRET).beforeBranch(new BranchPreparation("s-1", "u-7"))).isEqualTo(HookAnswer.NONE);
		Received request = received();
		assertThat(request.headers().getFirst("X-Arbor-Event")).isEqualTo("session_before_branch");
		assertThat(new String(request.body(), StandardCharsets.UTF_8)).isEqualTo(
				"{\"event\":\"session_before_branch\",\"sessionId\":\"s-1\",\"preparation\":{\"entryId\":\"u-7\"}}");
		assertSignedWith(request, SECRET);
	}

	@Test
	void beforeTreeWithASecretShouldSignTheExactBodyBytes() throws Exception {
		webhook(SECRET).beforeTree(TREE);
		Received request = received();
		assertThat(request.headers().get("X-Arbor-Signature-256")).hasSize(1);
		assertSignedWith(request, SECRET);
		assertThat(request.headers().getFirst("X-Arbor-Signature-256")).isNotEqualTo(hmac("other", request.body()));
	}

	@Test
	void signShouldMatchAnIndependentHmacSha256() throws Exception {
		byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
		assertThat(new WebhookSignature("key").sign(body)).isEqualTo(hmac("key", body));
		// RFC 4231 test case 2
		assertThat(new WebhookSignature("Jefe").sign("what do ya want for nothing?".getBytes(StandardCharsets.UTF_8)))
			.isEqualTo("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	}

	@Test
	void beforeTreeWithoutASecretShouldSendNoSignatureHeader() throws Exception {
		webhook(null).beforeTree(TREE);
		assertThat(received().headers().containsKey("X-Arbor-Signature-256")).isFalse();
		webhook("").beforeTree(TREE);
		Received request = received();
		assertThat(request.headers().containsKey("X-Arbor-Signature-256")).isFalse();
		assertThat(request.headers().getFirst("X-Arbor-Event")).isEqualTo("session_before_tree");
	}

	@Test
	void beforeTreeWhenAnsweredWith204OrAnEmptyBodyShouldAnswerNone() throws Exception {
		this.responder = (exchange) -> respond(exchange, 204, null);
		assertThat(webhook(null).beforeTree(TREE)).isEqualTo(HookAnswer.NONE);
		this.responder = (exchange) -> respond(exchange, 200, "");
		assertThat(webhook(null).beforeTree(TREE)).isEqualTo(HookAnswer.NONE);
		this.responder = (exchange) -> respond(exchange, 200, "  \n");
		assertThat(webhook(null).beforeTree(TREE)).isEqualTo(HookAnswer.NONE);
		this.responder = (exchange) -> respond(exchange, 200, "{}");
		assertThat(webhook(null).beforeTree(TREE)).isEqualTo(HookAnswer.NONE);
		this.responder = (exchange) -> respond(exchange, 200, "{\"cancel\":false}");
		assertThat(webhook(null).beforeTree(TREE)).isEqualTo(HookAnswer.NONE);
	}

	@Test
	void beforeTreeWhenAnsweredWithCancelShouldCancel() throws Exception {
		this.responder = (exchange) -> respond(exchange, 200, "{\"cancel\":true}");
		HookAnswer answer = webhook(null).beforeTree(TREE);
		assertThat(answer.cancel()).isTrue();
		assertThat(answer.isAnswer()).isTrue();
		assertThat(webhook(null).beforeBranch(new BranchPreparation("s-1", "u-1")).cancel()).isTrue();
	}

	@Test
	void beforeTreeWhenAnsweredWithASummaryShouldSupplyItWithItsDetails() throws Exception {
		this.responder = (exchange) -> respond(exchange, 200, "{\"summary\":{\"summary\":\"s\",\"details\":{\"a\":1}}}");
		HookAnswer answer = webhook(null).beforeTree(TREE);
		assertThat(answer.cancel()).isFalse();
		assertThat(answer.summary()).isNotNull();
		assertThat(answer.summary().summary()).isEqualTo("s");
		assertThat(Json.toString(answer.summary().details())).isEqualTo("{\"a\":1}");
	}

	@Test
	void beforeTreeWhenAnsweredWithASummaryWithoutDetailsShouldHaveNullDetails() throws Exception {
		this.responder = (exchange) -> respond(exchange, 200, "{\"summary\":{\"summary\":\"only text\"}}");
		HookAnswer answer = webhook(null).beforeTree(TREE);
		assertThat(answer.summary().summary()).isEqualTo("only text");
		assertThat(answer.summary().details()).isNull();
	}

	@Test
	void beforeTreeWhenAnsweredWithAStatusOtherThan2xxShouldFail() {
		for (int status : new int[] { 500, 404, 302, 400 }) {
			this.responder = (exchange) -> respond(exchange, status, "{\"cancel\":true}");
			assertThatExceptionOfType(IOException.class).as("status " + status)
				.isThrownBy(() -> webhook(null).beforeTree(TREE))
				.withMessageContaining(String.valueOf(status));
		}
	}

	@Test
	void beforeTreeWhenAnsweredWithMalformedJsonOrAnotherShapeShouldFail() {
		for (String body : new String[] { "{\"cancel\":tru", "not json", "{\"cancel\":\"yes\"}", "{\"cancel\":1}",
				"{\"summary\":\"x\"}", "{\"summary\":{\"summary\":3}}", "{\"summary\":{}}", "[{\"cancel\":true}]",
				"\"cancel\"", "null", "{\"summary\":{\"summary\":\"s\",\"details\":{\"n\":1e2147483647}}}" }) {
			this.responder = (exchange) -> respond(exchange, 200, body);
			assertThatExceptionOfType(IOException.class).as(body).isThrownBy(() -> webhook(null).beforeTree(TREE));
		}
	}

	@Test
	void beforeTreeWhenTheServerOutlivesTheTimeoutShouldFailWithinAboutTheTimeout() throws Exception {
		CountDownLatch stalled = new CountDownLatch(1);
		this.responder = (exchange) -> {
			stalled.countDown();
			try {
				this.release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			respond(exchange, 200, "{\"cancel\":true}");
		};
		Webhook webhook = new Webhook("slow", uri(), EVENTS, Duration.ofMillis(500), null, HttpClient.newHttpClient());
		long start = System.nanoTime();
		assertThatExceptionOfType(HttpTimeoutException.class).isThrownBy(() -> webhook.beforeTree(TREE));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10)); // not 30 s
		assertThat(stalled.await(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void sessionHooksWhenAWebhookFailsOrTimesOutShouldCountItAsNoAnswer() throws Exception {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("hook-");
		this.responder = (exchange) -> respond(exchange, 500, "");
		SessionHooks failing = new SessionHooks(List.of(webhook(null)), executor, new SimpleMeterRegistry());
		assertThat(failing.beforeTree(TREE, new CompletableFuture<>())).isEqualTo(HookAnswer.NONE);
		this.responder = (exchange) -> {
			try {
				this.release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			respond(exchange, 200, "{\"cancel\":true}");
		};
		Webhook slow = new Webhook("slow", uri(), EVENTS, Duration.ofMillis(300), null, HttpClient.newHttpClient());
		long start = System.nanoTime();
		assertThat(new SessionHooks(List.of(slow), executor, new SimpleMeterRegistry()).beforeTree(TREE, new CompletableFuture<>()))
			.isEqualTo(HookAnswer.NONE);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
	}

	@Test
	void constructorShouldRefuseEventsOtherThanTheBeforeEvents() {
		for (EventType type : EventType.values()) {
			if (EVENTS.contains(type)) {
				continue;
			}
			assertThatIllegalArgumentException().as(type.wireName())
				.isThrownBy(() -> new Webhook("bad", uri(), Set.of(EventType.SESSION_BEFORE_TREE, type),
						Duration.ofSeconds(1), null, HttpClient.newHttpClient()))
				.withMessageContaining(type.wireName());
		}
	}

	@Test
	void answersShouldBeTheConfiguredEventsOnly() {
		Webhook treeOnly = new Webhook("tree", uri(), Set.of(EventType.SESSION_BEFORE_TREE), Duration.ofSeconds(1),
				null, HttpClient.newHttpClient());
		assertThat(treeOnly.answers(EventType.SESSION_BEFORE_TREE)).isTrue();
		assertThat(treeOnly.answers(EventType.SESSION_BEFORE_BRANCH)).isFalse();
		assertThat(treeOnly.answers(EventType.ENTRY_APPENDED)).isFalse();
		assertThat(treeOnly.name()).isEqualTo("tree");
		assertThat(treeOnly.timeout()).isEqualTo(Duration.ofSeconds(1));
	}

	private Webhook webhook(@Nullable String secret) {
		return new Webhook("test", uri(), EVENTS, Duration.ofSeconds(10), secret, HttpClient.newHttpClient());
	}

	private URI uri() {
		return URI.create("http://" + this.server.getAddress().getHostString() + ":" + this.server.getAddress().getPort()
				+ "/hook");
	}

	private Received received() throws InterruptedException {
		Received request = this.requests.poll(10, TimeUnit.SECONDS);
		assertThat(request).as("a request reached the server").isNotNull();
		return request;
	}

	private static void assertSignedWith(Received request, String secret) throws Exception {
		assertThat(request.headers().getFirst("X-Arbor-Signature-256")).isEqualTo(hmac(secret, request.body()));
	}

	private static String hmac(String secret, byte[] body) throws Exception {
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
		return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
	}

	private static void respond(HttpExchange exchange, int status, @Nullable String body) throws IOException {
		if (body == null || body.isEmpty()) {
			exchange.sendResponseHeaders(status, -1);
			return;
		}
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static EntryLine line(String json) {
		return EntryLine.of(json.getBytes(StandardCharsets.UTF_8));
	}

	@FunctionalInterface
	private interface Responder {

		void respond(HttpExchange exchange) throws IOException;

	}

	private record Received(String method, Headers headers, byte[] body) {
	}

}

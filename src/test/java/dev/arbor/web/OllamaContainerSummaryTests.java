package dev.arbor.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import dev.arbor.Fixtures;
import dev.arbor.session.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.ollama.OllamaContainer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A branch summary written by a real Ollama with a small model on the CPU: the upstream oh-my-pi fixture is
 * imported, the leaf is moved back with {@code summarize:true}, and the {@code branch_summary} entry holds the
 * preamble, the model's text and the files of the abandoned branch. {@link OllamaSummaryApiTests} checks the
 * protocol against a stand-in; this checks that a real server and model answer what Spring AI's client expects.
 *
 * <p>Skipped where no Docker engine answers. The image and the model are pulled on the first run (about 400 MB for
 * the model), so the machine needs to reach Docker Hub and Ollama's registry. Both can be set by system property
 * or environment: {@code arbor.ollama.image} / {@code ARBOR_OLLAMA_IMAGE} (default {@code ollama/ollama:latest}, as
 * in docker-compose.yml), {@code arbor.ollama.model} / {@code ARBOR_OLLAMA_MODEL} (default {@code qwen2.5:0.5b}).
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
class OllamaContainerSummaryTests {

	private static final Logger log = LoggerFactory.getLogger(OllamaContainerSummaryTests.class);

	/** The fixture's session id (its header). */
	private static final String SESSION_ID = "d703a1a9-1b7b-4fb1-b512-c9738b1fe617";

	/**
	 * The user message that starts the abandoned branch: the fixture's last 65 entries, with a read of
	 * {@code README.md} only and edits of three other files.
	 */
	private static final String BRANCH_START = "ok, README.md and CHANGELOG.md in order as well?";

	/** A model on the CPU takes minutes, not seconds, over a prompt of a few thousand tokens. */
	private static final Duration SUMMARY_TIMEOUT = Duration.ofMinutes(5);

	static final String MODEL = setting("arbor.ollama.model", "qwen2.5:0.5b");

	@Container
	static final OllamaContainer ollama = new OllamaContainer(setting("arbor.ollama.image", "ollama/ollama:latest"));

	@TempDir
	static Path storage;

	@BeforeAll
	static void pullModel() throws Exception {
		long start = System.nanoTime();
		ExecResult pull = ollama.execInContainer("ollama", "pull", MODEL);
		assertThat(pull.getExitCode()).as("ollama pull %s: %s", MODEL, pull.getStderr()).isZero();
		log.info("Pulled {} in {} s", MODEL, (System.nanoTime() - start) / 1_000_000_000);
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
		registry.add("arbor.summary.provider", () -> "ollama");
		registry.add("arbor.summary.timeout", () -> SUMMARY_TIMEOUT.toString());
		// A small window keeps the CPU's work to a few thousand tokens; Ollama is told the same window, since it
		// would otherwise cut the prompt to its own default (a few thousand tokens) without a word.
		registry.add("arbor.summary.context-window", () -> "16384");
		registry.add("arbor.summary.reserve-tokens", () -> "4096");
		registry.add("arbor.summary.max-output-tokens", () -> "512");
		registry.add("spring.ai.ollama.chat.num-ctx", () -> "16384");
		registry.add("spring.ai.ollama.base-url", ollama::getEndpoint);
		registry.add("spring.ai.ollama.chat.model", () -> MODEL);
	}

	@LocalServerPort
	int port;

	@Test
	void navigatingWithSummarizeShouldWriteTheModelsSummaryOfTheAbandonedBranch(@Autowired RestTestClient client)
			throws Exception {
		JsonNode session = ApiSessions.body(client.post()
			.uri("/sessions/import")
			.contentType(MediaType.parseMediaType("application/x-ndjson"))
			.body(Files.readAllBytes(Fixtures.path(Fixtures.OMP_V3)))
			.exchange()
			.expectStatus()
			.isCreated());
		assertThat(session.get("id").asString()).isEqualTo(SESSION_ID);
		String target = entryBefore(ApiSessions.body(client.get().uri("/sessions/{id}/path", SESSION_ID).exchange()));

		long start = System.nanoTime();
		HttpResponse<String> navigated = navigate("{\"targetId\":\"" + target + "\",\"summarize\":true}");
		log.info("Summarized by {} in {} s", MODEL, (System.nanoTime() - start) / 1_000_000_000);
		assertThat(navigated.statusCode()).as(navigated.body()).isEqualTo(200);
		JsonNode outcome = Json.MAPPER.readTree(navigated.body());

		JsonNode entry = outcome.get("summaryEntry");
		assertThat(entry.get("type").asString()).isEqualTo("branch_summary");
		assertThat(entry.get("parentId").asString()).isEqualTo(target);
		assertThat(entry.get("fromId").asString()).isEqualTo(target);
		assertThat(outcome.get("newLeafId").asString()).isEqualTo(entry.get("id").asString());
		String preamble = "The user explored a different conversation branch before returning here.\n"
				+ "Summary of that exploration:\n\n";
		String files = "\n\n<read-files>\nREADME.md\n</read-files>\n\n<modified-files>\n"
				+ "packages/coding-agent/CHANGELOG.md\npackages/coding-agent/README.md\n"
				+ "packages/coding-agent/test/test-theme-colors.ts\n</modified-files>";
		String summary = entry.get("summary").asString();
		log.info("The summary:\n{}", summary);
		assertThat(summary).startsWith(preamble).endsWith(files);
		assertThat(summary.substring(preamble.length(), summary.length() - files.length())).as("the model's text")
			.isNotBlank();
		assertThat(entry.get("details").toString()).isEqualTo("{\"readFiles\":[\"README.md\"],\"modifiedFiles\":["
				+ "\"packages/coding-agent/CHANGELOG.md\",\"packages/coding-agent/README.md\","
				+ "\"packages/coding-agent/test/test-theme-colors.ts\"]}");
	}

	/** The id of the entry just before the user message that starts the branch. */
	private static String entryBefore(JsonNode path) {
		for (int i = 1; i < path.size(); i++) {
			JsonNode message = path.get(i).path("message");
			if ("user".equals(message.path("role").asString("")) && SummaryProviderContract.text(message)
				.startsWith(BRANCH_START)) {
				return path.get(i - 1).get("id").asString();
			}
		}
		throw new IllegalStateException("No user message \"" + BRANCH_START + "\" in the fixture");
	}

	/**
	 * The navigation, on a client of its own whose timeout a CPU model fits in (the test client's was 10 s while it
	 * ran on Reactor Netty).
	 */
	private HttpResponse<String> navigate(String body) throws IOException, InterruptedException {
		HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/sessions/" + SESSION_ID + "/navigate?context=false"))
			.header("Content-Type", "application/json")
			.timeout(SUMMARY_TIMEOUT.plusMinutes(1))
			.POST(BodyPublishers.ofString(body))
			.build();
		return http.send(request, BodyHandlers.ofString());
	}

	/** A system property, else the environment variable of the same name (upper case, {@code _} for . and -). */
	static String setting(String property, String fallback) {
		String value = System.getProperty(property);
		if (value == null || value.isBlank()) {
			value = System.getenv(property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
		}
		return (value == null || value.isBlank()) ? fallback : value;
	}

}

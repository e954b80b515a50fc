package dev.arbor;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.arbor.session.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image built from the project's real {@code Dockerfile} keeps sessions in its {@code /data} volume: a session
 * created and appended to, with its leaf moved off the last entry, reads back the same from a new container on the
 * same volume. Also: the container's HEALTHCHECK turns healthy, readiness answers 200, java is PID 1, runs as a user
 * other than root with the start-up cache trained at build mapped, and stops on SIGTERM within the grace period.
 *
 * <p>Skipped where no Docker engine answers. {@code scripts/container-test.sh} provides one on a machine without, with
 * local base images; the base images, and the network of the build, are set by system property or environment:
 * {@code arbor.container.build-image} / {@code ARBOR_CONTAINER_BUILD_IMAGE}, {@code arbor.container.runtime-image} /
 * {@code ARBOR_CONTAINER_RUNTIME_IMAGE}, {@code arbor.container.build-network} / {@code ARBOR_CONTAINER_BUILD_NETWORK}
 * (the daemon's default unless set; {@code host} where the daemon runs with {@code --iptables=false}).
 */
@Testcontainers(disabledWithoutDocker = true)
class ContainerImageTests {

	private static final Logger log = LoggerFactory.getLogger(ContainerImageTests.class);

	/** Fixed names, kept after the run: the next build reuses their layers as its cache. */
	static final String IMAGE = "arbor-container-test:latest";

	/**
	 * The Dockerfile's build stage, tagged too: untagged, the cache of the next build would look like any dangling
	 * image, and whatever cleans those up would take the downloaded dependencies with it.
	 */
	static final String BUILD_STAGE_IMAGE = "arbor-container-test:build";

	static final String ENTRIES = """
			[{"type":"message","message":{"role":"user","content":"hi"}},\
			{"type":"message","message":{"role":"assistant","content":"hello"}}]""";

	static final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	static DockerClient docker;

	static String volume;

	@BeforeAll
	static void buildImageAndCreateVolume() {
		docker = DockerClientFactory.instance().client();
		long start = System.nanoTime();
		fromDockerfile(BUILD_STAGE_IMAGE).withTarget("build").get();
		fromDockerfile(IMAGE).get();
		log.info("Built {} in {} s", IMAGE, (System.nanoTime() - start) / 1_000_000_000);
		volume = "arbor-test-" + UUID.randomUUID();
		docker.createVolumeCmd().withName(volume).exec();
	}

	static ImageFromDockerfile fromDockerfile(String name) {
		String network = setting("arbor.container.build-network", "");
		return new ImageFromDockerfile(name, false).withDockerfile(Path.of("Dockerfile").toAbsolutePath())
			.withBuildArg("BUILD_IMAGE", setting("arbor.container.build-image", "eclipse-temurin:21-jdk"))
			.withBuildArg("RUNTIME_IMAGE", setting("arbor.container.runtime-image", "eclipse-temurin:25-jre"))
			.withBuildImageCmdModifier(cmd -> {
				cmd.withForcerm(true); // a failed step leaves no stopped container behind
				if (!network.isEmpty()) {
					cmd.withNetworkMode(network);
				}
			});
	}

	@AfterAll
	static void removeVolume() {
		if (volume != null) {
			docker.removeVolumeCmd(volume).exec();
		}
	}

	@Test
	void sessionsShouldSurviveARestartOfTheContainerOnTheSameVolume() throws Exception {
		String id;
		JsonNode leaf;
		JsonNode entries;
		// The first start waits for the image's own HEALTHCHECK to turn healthy: that proves the probe too.
		try (GenericContainer<?> first = arbor(Wait.forHealthcheck())) {
			first.start();
			String base = baseUrl(first);
			assertThat(get(base + "/actuator/health/readiness").statusCode()).isEqualTo(200);

			// /proc/1/status: "Uid:\t<real>\t<effective>\t<saved>\t<filesystem>"
			String uid = first.execInContainer("cat", "/proc/1/status")
				.getStdout()
				.lines()
				.filter(line -> line.startsWith("Uid:"))
				.findFirst()
				.orElseThrow()
				.split("\\s+")[1];
			assertThat(uid).as("the uid of PID 1").isNotEqualTo("0");
			String cmdline = first.execInContainer("cat", "/proc/1/cmdline").getStdout();
			assertThat(cmdline.split("\0")[0]).as("PID 1").endsWith("java");
			// The start-up cache trained at build (an AOT cache on Java 25+, a CDS archive before) is in use
			assertThat(first.execInContainer("cat", "/proc/1/maps").getStdout()).as("the memory map of PID 1")
				.containsPattern("/app/arbor\\.(aot|jsa)");
			assertThat(first.execInContainer("stat", "-c", "%u", "/data/sessions").getStdout().trim())
				.as("the owner of the storage directory in the volume")
				.isEqualTo(uid);

			HttpResponse<String> created = post(base + "/sessions", "{\"cwd\":\"/work\"}");
			assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
			id = Json.MAPPER.readTree(created.body()).get("id").asString();
			HttpResponse<String> appended = post(base + "/sessions/" + id + "/entries", ENTRIES);
			assertThat(appended.statusCode()).as(appended.body()).isEqualTo(201);
			String firstEntry = Json.MAPPER.readTree(appended.body()).get(0).get("id").asString();

			HttpResponse<String> moved = send(HttpRequest.newBuilder(URI.create(base + "/sessions/" + id + "/leaf"))
				.header("Content-Type", "application/json")
				.PUT(BodyPublishers.ofString("{\"entryId\":\"" + firstEntry + "\"}")));
			assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);

			leaf = Json.MAPPER.readTree(get(base + "/sessions/" + id + "/leaf").body());
			entries = Json.MAPPER.readTree(get(base + "/sessions/" + id + "/entries").body());
			assertThat(leaf.get("leafId").asString()).isEqualTo(firstEntry);
			assertThat(entries.get("items")).hasSize(2);
			assertThat(entries.get("items").get(1).get("message").get("content").asString()).isEqualTo("hello");

			// What `docker stop` does: SIGTERM, then SIGKILL after the timeout. Java as PID 1 exits on the SIGTERM
			// (128 + 15) after Boot's graceful shutdown; 137 would mean the signal never reached it.
			docker.stopContainerCmd(first.getContainerId()).withTimeout(30).exec();
			Long exitCode = docker.inspectContainerCmd(first.getContainerId()).exec().getState().getExitCodeLong();
			assertThat(exitCode).as("exit code after docker stop").isEqualTo(143L);
		}

		try (GenericContainer<?> second = arbor(Wait.forHttp("/actuator/health/readiness").forStatusCode(200))) {
			second.start();
			String base = baseUrl(second);
			assertThat(Json.MAPPER.readTree(get(base + "/sessions/" + id + "/leaf").body())).isEqualTo(leaf);
			assertThat(Json.MAPPER.readTree(get(base + "/sessions/" + id + "/entries").body())).isEqualTo(entries);
		}
	}

	static GenericContainer<?> arbor(WaitStrategy ready) {
		return new GenericContainer<>(IMAGE).withExposedPorts(8080)
			.withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
				.withMounts(List.of(new Mount().withType(MountType.VOLUME).withSource(volume).withTarget("/data"))))
			.withLogConsumer(new Slf4jLogConsumer(log).withPrefix("arbor"))
			.waitingFor(ready.withStartupTimeout(Duration.ofMinutes(2)));
	}

	static String baseUrl(GenericContainer<?> container) {
		return "http://" + container.getHost() + ":" + container.getMappedPort(8080);
	}

	static HttpResponse<String> get(String url) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(URI.create(url)).GET());
	}

	static HttpResponse<String> post(String url, String json) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(URI.create(url))
			.header("Content-Type", "application/json")
			.POST(BodyPublishers.ofString(json)));
	}

	static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return http.send(request.timeout(Duration.ofSeconds(30)).build(), BodyHandlers.ofString());
	}

	/** A system property, else the environment variable of the same name (upper case, {@code _} for . and -). */
	static String setting(String property, String fallback) {
		String value = System.getProperty(property);
		if (value == null || value.isBlank()) {
			value = System.getenv(property.toUpperCase().replace('.', '_').replace('-', '_'));
		}
		return value == null || value.isBlank() ? fallback : value;
	}

}

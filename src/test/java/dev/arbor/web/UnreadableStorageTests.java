package dev.arbor.web;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.arbor.ArborApplication;
import dev.arbor.session.Json;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A storage directory with a sub-folder and a file that Arbor may not read: they are listed as unreadable, and
 * everything else is served, from the start on. Arbor runs in a child JVM, because only there can it be denied the
 * folder when the tests run as root: root reads a folder of mode 000, unless it lacks CAP_DAC_OVERRIDE and
 * CAP_DAC_READ_SEARCH, which {@code setpriv} takes from the child's bounding set. The test skips, saying why, where
 * neither works.
 */
class UnreadableStorageTests {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	/** A cold JVM on a busy 2-core machine. */
	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	@TempDir
	Path dir;

	@Test
	void anUnreadableSubFolderOrFileShouldBeListedAndEverythingElseServedFromTheStartOn(TestInfo test)
			throws Exception {
		Path storage = Files.createDirectories(this.dir.resolve("storage"));
		writeSession(storage.resolve("top.jsonl"), "unr-top");
		writeSession(Files.createDirectories(storage.resolve("open")).resolve("inner.jsonl"), "unr-open");
		Path locked = Files.createDirectories(storage.resolve("locked"));
		writeSession(locked.resolve("hidden.jsonl"), "unr-locked");
		Path secret = storage.resolve("secret.jsonl");
		writeSession(secret, "unr-secret");
		List<String> unprivileged = unprivileged(test);
		Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
		Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
		try {
			if (run(unprivileged, "ls", locked.toString()) == 0) {
				skip(test, "a folder of mode 000 can still be read by a child process here");
			}
			Path log = this.dir.resolve("arbor.log");
			int port = freePort();
			List<String> command = new ArrayList<>(unprivileged);
			command.addAll(List.of(ProcessHandle.current().info().command().orElseThrow(), "-Xshare:auto",
					"-XX:TieredStopAtLevel=1", "-Xmx384m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
					ArborApplication.class.getName(), "--server.port=" + port, "--arbor.storage.dir=" + storage,
					"--logging.level.root=WARN"));
			Process arbor = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
			try {
				awaitStarted(arbor, port, log);
				for (int round = 0; round < 2; round++) {
					HttpResponse<String> listing = get(port, "/sessions");
					assertThat(listing.statusCode()).as(listing.body()).isEqualTo(200);
					JsonNode page = Json.MAPPER.readTree(listing.body());
					assertThat(page.get("items").valueStream().map(item -> item.get("header").get("id").asString()))
						.containsExactlyInAnyOrder("unr-top", "unr-open");
					assertThat(page.get("unreadable").toString()).isEqualTo(
							"[{\"file\":\"locked\",\"reason\":\"a folder that cannot be read: permission denied\"},"
									+ "{\"file\":\"secret.jsonl\",\"reason\":\"cannot be read: permission denied\"}]");
				}
				HttpResponse<String> inner = get(port, "/sessions/unr-open");
				assertThat(inner.statusCode()).as("a session not in memory yet: " + inner.body()).isEqualTo(200);
				assertThat(get(port, "/sessions/unr-top").statusCode()).isEqualTo(200);
				assertThat(get(port, "/sessions/unr-locked").statusCode()).isEqualTo(404);
				String output = Files.readString(log);
				assertThat(output.split("Folder locked is not served", -1)).as(output).hasSize(2);
				assertThat(output.split("Session file secret.jsonl is not served", -1)).as(output).hasSize(2);
			}
			finally {
				arbor.destroy();
				if (!arbor.waitFor(30, TimeUnit.SECONDS)) {
					arbor.destroyForcibly();
				}
			}
		}
		finally {
			Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
			Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
		}
	}

	/** What runs a child without the right to read everything: nothing for a user, setpriv for root. */
	private static List<String> unprivileged(TestInfo test) throws IOException, InterruptedException {
		if (!"root".equals(System.getProperty("user.name"))) {
			return List.of();
		}
		List<String> setpriv = List.of("setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--");
		int found;
		try {
			found = run(setpriv, "true");
		}
		catch (IOException ex) {
			found = -1;
		}
		if (found != 0) {
			skip(test, "the tests run as root, who reads a folder of mode 000, and setpriv cannot drop "
					+ "CAP_DAC_OVERRIDE here (not installed, or not allowed)");
		}
		return setpriv;
	}

	private static void skip(TestInfo test, String reason) {
		System.out.println("SKIPPED " + test.getDisplayName() + ": " + reason);
		Assumptions.abort(reason);
	}

	private static int run(List<String> prefix, String... command) throws IOException, InterruptedException {
		List<String> all = new ArrayList<>(prefix);
		all.addAll(List.of(command));
		Process process = new ProcessBuilder(all).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
	}

	private static void awaitStarted(Process arbor, int port, Path log) throws Exception {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!arbor.isAlive()) {
				throw new AssertionError("Arbor did not start:\n" + Files.readString(log));
			}
			try {
				if (get(port, "/actuator/health/liveness").statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			Thread.sleep(200);
		}
		throw new AssertionError("Arbor did not start within " + START_TIMEOUT + ":\n" + Files.readString(log));
	}

	private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
		return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static void writeSession(Path file, String id) throws IOException {
		Files.writeString(file, "{\"type\":\"session\",\"version\":3,\"id\":\"" + id
				+ "\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}\n", StandardCharsets.UTF_8);
	}

}

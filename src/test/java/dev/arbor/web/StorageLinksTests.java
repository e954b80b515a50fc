package dev.arbor.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.arbor.AgentWrites;
import dev.arbor.session.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The storage directory is a boundary: a symbolic link under it that leads out of it (to a session file, to a folder,
 * to {@code /etc/passwd}) is never followed, whatever the settings, and is listed as unreadable with the reason; one
 * that stays inside is followed only with {@code arbor.storage.follow-links=true}. What lies outside is neither served,
 * written, nor changed, across restarts too.
 */
class StorageLinksTests {

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	private static final String OUT = "a symbolic link that leads out of the storage directory";

	private static final String NOT_FOLLOWED = "a symbolic link, not followed (arbor.storage.follow-links is false)";

	@TempDir
	Path dir;

	Path storage;

	Path outside;

	@BeforeEach
	void folders() throws IOException {
		this.storage = Files.createDirectories(this.dir.resolve("storage"));
		this.outside = Files.createDirectories(this.dir.resolve("outside"));
	}

	@Test
	void linksToASessionFileOrAFileOutsideShouldBeListedAsUnreadableAndNeitherServedNorWritten() throws Exception {
		writeSession(this.storage.resolve("real.jsonl"), "lnk-real");
		Path elsewhere = writeSession(this.outside.resolve("elsewhere.jsonl"), "lnk-outside");
		Files.createSymbolicLink(this.storage.resolve("escape.jsonl"), elsewhere);
		Files.createSymbolicLink(this.storage.resolve("passwd.jsonl"), Path.of("/etc/passwd"));
		Map<String, String> before = ApiSessions.files(this.outside);
		for (int start = 0; start < 2; start++) { // and after a restart
			try (RestartedApp arbor = RestartedApp.start("arbor.storage.dir=" + this.storage)) {
				JsonNode listing = json(arbor, "GET", "/sessions", null, 200);
				assertThat(ids(listing)).containsExactly("lnk-real");
				assertThat(unreadable(listing)).containsExactly(Map.entry("escape.jsonl", OUT),
						Map.entry("passwd.jsonl", OUT));
				json(arbor, "GET", "/sessions/lnk-outside", null, 404);
				json(arbor, "POST", "/sessions/lnk-outside/entries",
						"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}", 404);
				json(arbor, "POST", "/sessions/lnk-real/entries",
						"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"y\"}}", 201);
			}
		}
		assertThat(ApiSessions.files(this.outside)).isEqualTo(before);
	}

	@Test
	void aLinkToAFolderOutsideShouldBeListedAsUnreadableAndNotWalked() throws Exception {
		writeSession(Files.createDirectories(this.outside.resolve("project")).resolve("s.jsonl"), "lnk-folder");
		Files.createSymbolicLink(this.storage.resolve("project"), this.outside.resolve("project"));
		Map<String, String> before = ApiSessions.files(this.outside);
		for (String follow : List.of("false", "true")) {
			try (RestartedApp arbor = RestartedApp.start("arbor.storage.dir=" + this.storage,
					"arbor.storage.follow-links=" + follow)) {
				JsonNode listing = json(arbor, "GET", "/sessions", null, 200);
				assertThat(ids(listing)).isEmpty();
				assertThat(unreadable(listing)).as("follow-links=" + follow).containsExactly(Map.entry("project", OUT));
				json(arbor, "GET", "/sessions/lnk-folder", null, 404);
			}
		}
		assertThat(ApiSessions.files(this.outside)).isEqualTo(before);
	}

	@Test
	void aLinkInsideShouldBeRefusedByDefaultAndServedWhenLinksAreFollowed() throws Exception {
		Path kept = writeSession(Files.createDirectories(this.storage.resolve("kept")).resolve("s.jsonl.orig"), "lnk-inside");
		Files.createSymbolicLink(this.storage.resolve("alias.jsonl"), kept);
		Files.createSymbolicLink(this.storage.resolve("loop"), this.storage); // a folder link back to the root
		try (RestartedApp arbor = RestartedApp.start("arbor.storage.dir=" + this.storage)) {
			JsonNode listing = json(arbor, "GET", "/sessions", null, 200);
			assertThat(ids(listing)).isEmpty();
			assertThat(unreadable(listing)).containsExactly(Map.entry("alias.jsonl", NOT_FOLLOWED),
					Map.entry("loop", NOT_FOLLOWED));
			json(arbor, "GET", "/sessions/lnk-inside", null, 404);
		}
		try (RestartedApp arbor = RestartedApp.start("arbor.storage.dir=" + this.storage,
				"arbor.storage.follow-links=true")) {
			JsonNode listing = json(arbor, "GET", "/sessions", null, 200);
			assertThat(ids(listing)).containsExactly("lnk-inside");
			assertThat(unreadable(listing)).containsExactly(
					Map.entry("loop", "a symbolic link to a folder that is listed already, not followed"));
			json(arbor, "GET", "/sessions/lnk-inside", null, 200);
			json(arbor, "POST", "/sessions/lnk-inside/entries",
					"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"through the link\"}}", 201);
		}
		assertThat(Files.readString(kept)).contains("through the link");
	}

	@Test
	void aSessionFileReplacedByALinkOutsideShouldEndTheSessionAndNotBeRead() throws Exception {
		Path file = writeSession(this.storage.resolve("swap.jsonl"), "lnk-swap");
		Path elsewhere = this.outside.resolve("swap.jsonl");
		Files.writeString(elsewhere, Files.readString(file)
				+ AgentWrites.userMessage("0e0e0e01", null, "from outside") + "\n");
		try (RestartedApp arbor = RestartedApp.start("arbor.storage.dir=" + this.storage, "arbor.storage.watch=false",
				"arbor.storage.poll-interval=0")) {
			assertThat(json(arbor, "GET", "/sessions/lnk-swap", null, 200).get("entryCount").asInt()).isZero();
			Files.delete(file);
			Files.createSymbolicLink(file, elsewhere);
			json(arbor, "GET", "/sessions/lnk-swap/entries", null, 404);
			json(arbor, "GET", "/sessions/lnk-swap", null, 404);
			assertThat(unreadable(json(arbor, "GET", "/sessions", null, 200))).containsExactly(Map.entry("swap.jsonl", OUT));
		}
	}

	@Test
	void aLinkPlantedAsTheLeafsTempFileShouldNotBeWrittenThrough() throws Exception {
		Path file = writeSession(this.storage.resolve("moved.jsonl"), "lnk-moved");
		Path target = Files.writeString(this.outside.resolve("target.txt"), "keep me\n");
		try (RestartedApp arbor = RestartedApp.start("arbor.storage.dir=" + this.storage)) {
			String first = json(arbor, "POST", "/sessions/lnk-moved/entries",
					"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"one\"}}", 201).get("id").asString();
			json(arbor, "POST", "/sessions/lnk-moved/entries",
					"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"two\"}}", 201);
			Files.createSymbolicLink(file.resolveSibling("moved.jsonl.leaf.tmp"), target);
			json(arbor, "PUT", "/sessions/lnk-moved/leaf", "{\"entryId\":\"" + first + "\"}", 200);
			assertThat(json(arbor, "GET", "/sessions/lnk-moved/leaf", null, 200).get("leafId").asString()).isEqualTo(first);
		}
		assertThat(Files.readString(target)).isEqualTo("keep me\n");
		assertThat(Files.isSymbolicLink(file.resolveSibling("moved.jsonl.leaf.tmp"))).isFalse();
	}

	private static Path writeSession(Path file, String id) throws IOException {
		return Files.writeString(file, "{\"type\":\"session\",\"version\":3,\"id\":\"" + id
				+ "\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/w\"}\n", StandardCharsets.UTF_8);
	}

	private static List<String> ids(JsonNode listing) {
		return listing.get("items").valueStream().map(item -> item.get("header").get("id").asString()).toList();
	}

	private static List<Map.Entry<String, String>> unreadable(JsonNode listing) {
		return listing.get("unreadable")
			.valueStream()
			.map(file -> Map.entry(file.get("file").asString(), file.get("reason").asString()))
			.toList();
	}

	private static JsonNode json(RestartedApp arbor, String method, String path, String body, int status)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + arbor.port() + path))
			.header("Content-Type", "application/json")
			.method(method, (body != null) ? HttpRequest.BodyPublishers.ofString(body) : HttpRequest.BodyPublishers.noBody());
		HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(status);
		return Json.MAPPER.readTree(response.body());
	}

}

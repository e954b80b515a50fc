package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import dev.arbor.UpstreamPi;
import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link PiListingContract} on the file store, the sessions written into its folder as pi writes them. */
class FilePiListingTests extends PiListingContract {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Test
	void aNameSetThroughArborShouldBeTheNamePiLists() throws IOException {
		String id = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, id, "what pi and Arbor both read");
		for (String name : new String[] { "\u3000 named by Arbor\t", "" }) {
			this.client.put()
				.uri("/sessions/{id}/name", id)
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("name", name))
				.exchange()
				.expectStatus()
				.isOk();
			Path copies = Files.createDirectories(this.scratch.resolve("named-" + name.length()));
			Path file = ApiSessions.file(storage, id);
			Files.copy(file, copies.resolve(file.getFileName()));
			JsonNode listed = Json.MAPPER.readTree(UpstreamPi.run("list-sessions.mjs",
					Files.createDirectories(this.scratch.resolve("home")), copies.toString()));
			assertThat(listed).hasSize(1);
			JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", id).exchange().expectStatus().isOk());
			assertThat(listed.get(0).get("name")).as("pi's name after %s", name).isEqualTo(session.get("name"));
			assertThat(listed.get(0).get("firstMessage")).isEqualTo(session.get("firstMessage"));
		}
	}

	/**
	 * pi's {@code /resume} in a working directory lists the sessions of its folder under pi's own sessions folder
	 * (docs/STORAGE.md#where-new-sessions-go): with a copy of Arbor's storage directory as that folder, pi finds every
	 * session Arbor created, imported, branched and forked for a cwd there, under the file Arbor wrote, and no other.
	 */
	@Test
	void everyNewSessionShouldBeInPisResumeForItsCwd() throws IOException {
		String unique = UUID.randomUUID().toString();
		String project = "/home/me/" + unique + "/project";
		String windows = "C:\\Users\\me\\" + unique + " x:y";
		String escaping = "/" + unique + "/../../etc";
		String doubled = "//" + unique + "/";
		Map<String, String> folders = Map.of(project, "--home-me-" + unique + "-project--", windows,
				"--C--Users-me-" + unique + " x-y--", escaping, "--" + unique + "-..-..-etc--", doubled,
				"---" + unique + "---");
		Map<String, Set<String>> created = new LinkedHashMap<>();
		for (String cwd : folders.keySet()) {
			String id = ApiSessions.create(this.client, cwd);
			ApiSessions.appendUser(this.client, id, "working in " + cwd);
			created.put(cwd, new TreeSet<>(Set.of(id)));
		}
		String source = created.get(project).iterator().next();
		String first = ApiSessions.appendUser(this.client, source, "a second message");
		created.get(project).add(ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/fork", source)
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString());
		created.get(project).add(ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branched-sessions", source)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("leafId", first))
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString());
		String imported = "{\"type\":\"session\",\"version\":3,\"id\":\"" + UUID.randomUUID()
				+ "\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":" + Json.MAPPER.writeValueAsString(windows)
				+ "}\n{\"type\":\"message\",\"id\":\"a0000001\",\"parentId\":null,"
				+ "\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"imported\"}}\n";
		created.get(windows).add(ApiSessions.body(this.client.post()
			.uri("/sessions/import")
			.contentType(MediaType.parseMediaType("application/x-ndjson"))
			.body(imported.getBytes(StandardCharsets.UTF_8))
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString());

		Path home = Files.createDirectories(this.scratch.resolve("resume-home"));
		copyTree(storage, home.resolve(".pi/agent/sessions"));
		JsonNode resumable = Json.MAPPER
			.readTree(UpstreamPi.run("resume-sessions.mjs", home, folders.keySet().toArray(String[]::new)));
		for (Map.Entry<String, Set<String>> cwd : created.entrySet()) {
			JsonNode listed = resumable.get(cwd.getKey());
			Set<String> ids = new TreeSet<>();
			for (JsonNode session : listed) {
				String id = session.get("id").asString();
				ids.add(id);
				String file = session.get("file").asString();
				assertThat(file).as("pi's file of %s", id).isEqualTo(name(ApiSessions.file(storage, id)));
				assertThat(file).as("in the folder of %s, one folder down", cwd.getKey())
					.startsWith(folders.get(cwd.getKey()) + "/")
					.containsOnlyOnce("/");
			}
			assertThat(ids).as("what pi's /resume lists in %s", cwd.getKey()).isEqualTo(cwd.getValue());
		}
	}


	/** A file of the storage directory by its name under it, {@code /} between names. */
	private static String name(Path file) {
		return storage.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
	}

	/**
	 * The folders and regular files of the storage directory, for pi to read (it may rewrite what it opens); not its
	 * {@code .arbor/}, whose search index writes and removes files meanwhile, and which pi does not read.
	 */
	private static void copyTree(Path from, Path to) throws IOException {
		for (Path path : FileTreeSnapshot.paths(from)) {
			Path target = to.resolve(from.relativize(path).toString());
			if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
				Files.createDirectories(target);
			}
			else if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
				Files.copy(path, target);
			}
		}
	}

	@Override
	void store(String name, String text) {
		try {
			Path folder = Files.createDirectories(storage.resolve("--work-listing--"));
			Files.writeString(folder.resolve(name + ".jsonl"), text, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

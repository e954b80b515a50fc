package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

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
			try (Stream<Path> files = Files.walk(storage)) {
				Path file = files.filter((path) -> path.getFileName().toString().endsWith(id + ".jsonl")).findFirst().orElseThrow();
				Files.copy(file, copies.resolve(file.getFileName()));
			}
			JsonNode listed = Json.MAPPER.readTree(UpstreamPi.run("list-sessions.mjs",
					Files.createDirectories(this.scratch.resolve("home")), copies.toString()));
			assertThat(listed).hasSize(1);
			JsonNode session = ApiSessions.body(this.client.get().uri("/sessions/{id}", id).exchange().expectStatus().isOk());
			assertThat(listed.get(0).get("name")).as("pi's name after %s", name).isEqualTo(session.get("name"));
			assertThat(listed.get(0).get("firstMessage")).isEqualTo(session.get("firstMessage"));
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

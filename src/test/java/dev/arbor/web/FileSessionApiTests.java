package dev.arbor.web;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import dev.arbor.TestSessions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SessionApiContract} on the file store, and what only the file store has: files other tools drop into the
 * folder, and the leaf sidecar beside a session file.
 */
class FileSessionApiTests extends SessionApiContract {

	@TempDir
	static Path storage;

	@DynamicPropertySource
	static void storage(DynamicPropertyRegistry registry) {
		registry.add("arbor.storage.dir", storage::toString);
	}

	@Override
	StoredState stored() {
		return StoredState.files(storage);
	}

	@Test
	void listSessionsShouldFindFilesOthersAddedAndReportThoseThatAreNoSessions() throws IOException {
		Path dropped = Files.createDirectories(storage.resolve("dropped-" + uniqueCwd().replace('/', '-')));
		TestSessions.copy(TestSessions.PI_V1, dropped);
		Files.writeString(dropped.resolve("notes.jsonl"), "just some notes\n");
		byte[] notes = Files.readAllBytes(dropped.resolve("notes.jsonl"));
		JsonNode page = list("/sessions");
		assertThat(ids(page.get("items"))).contains(testSessionId());
		String name = storage.relativize(dropped.resolve("notes.jsonl")).toString();
		assertThat(page.get("unreadable").toString()).contains("{\"file\":\"" + name + "\",\"reason\":");
		assertThat(dropped.resolve("notes.jsonl")).hasBinaryContent(notes);
		Files.delete(dropped.resolve("notes.jsonl"));
		assertThat(list("/sessions").get("unreadable").toString()).doesNotContain(name);
	}

	@Test
	void newSessionsShouldBeWrittenInTheFolderPiKeepsTheirWorkingDirectorysSessionsIn() throws IOException {
		String unique = UUID.randomUUID().toString();
		String inProject = create("/home/me/" + unique + "/C:\\src");
		assertThat(ApiSessions.file(storage, inProject).getParent())
			.isEqualTo(storage.resolve("--home-me-" + unique + "-C--src--"));
		String bare = ApiSessions.body(this.client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{}")
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString();
		assertThat(ApiSessions.file(storage, bare).getParent()).as("no cwd: the root").isEqualTo(storage);
		String tooLong = create("/" + "x".repeat(300));
		assertThat(ApiSessions.file(storage, tooLong).getParent()).as("no folder name that long").isEqualTo(storage);
		Path elsewhere = Files.createTempDirectory("arbor-elsewhere-");
		Files.createSymbolicLink(storage.resolve("--linked-" + unique + "--"), elsewhere);
		String linked = create("/linked-" + unique);
		assertThat(ApiSessions.file(storage, linked).getParent()).as("not behind a link").isEqualTo(storage);
		try (var outside = Files.list(elsewhere)) {
			assertThat(outside).isEmpty();
		}
	}

	@Test
	void deleteSessionShouldReturn204AndRemoveTheFileAndItsLeafSidecar() {
		String id = create(uniqueCwd());
		String first = ApiSessions.appendUser(this.client, id, "one");
		ApiSessions.appendAssistant(this.client, id, "two");
		moveLeaf(id, first);
		Path file = ApiSessions.file(storage, id);
		Path sidecar = file.resolveSibling(file.getFileName() + ".leaf");
		assertThat(sidecar).exists();
		this.client.delete()
			.uri("/sessions/{id}", id)
			.exchange()
			.expectStatus()
			.isNoContent()
			.expectBody()
			.isEmpty();
		assertThat(file).doesNotExist();
		assertThat(sidecar).doesNotExist();
		expectSessionNotFound(this.client.get().uri("/sessions/{id}", id).exchange(), id);
		assertThat(ids(list("/sessions?limit=1000").get("items"))).doesNotContain(id);
	}

}

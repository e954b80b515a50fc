package dev.arbor.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.SessionTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Migrations v1 → v2 → v3 (docs/SESSION-FORMAT.md#versions-and-migrations). */
class MigrationTests {

	private static final String V1_HEADER = "{\"type\":\"session\",\"id\":\"v1-session\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}";

	@TempDir
	Path dir;

	@Test
	void v1ShouldChainEntriesInFileOrderAndMapFirstKeptEntryIndexCountingTheHeaderAsZero() throws IOException {
		Path file = write(this.dir, "v1.jsonl", V1_HEADER + "\n" + message("one") + "\n" + message("two")
				+ "\n" + message("three") + "\n" + compaction("2") + "\n" + compaction("0") + "\n" + compaction("99")
				+ "\n" + compaction("\"2\"") + "\n");
		SessionTree tree = SessionFileReader.read(file).tree();
		List<EntryLine> entries = tree.getEntries();
		assertThat(entries).hasSize(7);
		assertThat(tree.header().version()).isEqualTo(3);
		assertThat(tree.header().toNode().get("version").asInt()).isEqualTo(3);
		assertThat(entries.get(0).parentId()).isNull();
		for (int i = 1; i < entries.size(); i++) {
			assertThat(entries.get(i).parentId()).isEqualTo(entries.get(i - 1).id());
		}
		ObjectNode kept = entries.get(3).toNode();
		assertThat(Json.text(kept, "firstKeptEntryId")).isEqualTo(entries.get(1).id()); // index 2 = the second entry
		assertThat(kept.has("firstKeptEntryIndex")).isFalse();
		for (int i : new int[] { 4, 5 }) { // the header, or out of range: no id, index removed
			ObjectNode node = entries.get(i).toNode();
			assertThat(node.has("firstKeptEntryId")).isFalse();
			assertThat(node.has("firstKeptEntryIndex")).isFalse();
		}
		assertThat(entries.get(6).toNode().get("firstKeptEntryIndex").asString()).isEqualTo("2"); // not a number: kept
	}

	@Test
	void v1IdsShouldBeTheSameOnEveryLoadAndDifferBetweenSessions() throws IOException {
		String body = message("one") + "\n" + message("two") + "\n";
		Path first = write(this.dir, "a.jsonl", V1_HEADER + "\n" + body);
		Path other = write(this.dir, "b.jsonl", V1_HEADER.replace("v1-session", "v1-other") + "\n" + body);
		List<String> ids = ids(SessionFileReader.read(first).tree());
		assertThat(ids(SessionFileReader.read(first).tree())).isEqualTo(ids);
		assertThat(ids(SessionFileReader.read(other).tree())).doesNotContainAnyElementsOf(ids);
		Set<String> taken = new HashSet<>();
		assertThat(ids).containsExactly(Migrations.deterministicId("v1-session", 1, taken),
				Migrations.deterministicId("v1-session", 2, taken));
	}

	@Test
	void deterministicIdWhenTakenShouldPickTheNextCandidateDeterministically() {
		String first = Migrations.deterministicId("s", 1, new HashSet<>());
		Set<String> taken = new HashSet<>(Set.of(first));
		String second = Migrations.deterministicId("s", 1, taken);
		assertThat(second).isNotEqualTo(first).matches("[0-9a-f]{8}");
		assertThat(Migrations.deterministicId("s", 1, new HashSet<>(Set.of(first)))).isEqualTo(second);
	}

	@Test
	void v2ShouldRenameHookMessageRoleToCustomAndKeepIds() throws IOException {
		String header = "{\"type\":\"session\",\"version\":2,\"id\":\"v2\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}";
		String hook = "{\"type\":\"message\",\"id\":\"h1\",\"parentId\":null,\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{\"role\":\"hookMessage\",\"content\":\"x\",\"extra\":1}}";
		String user = "{\"type\":\"message\",\"id\":\"u1\",\"parentId\":\"h1\",\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"message\":{\"role\":\"user\",\"content\":\"y\"}}";
		Path file = write(this.dir, "v2.jsonl", header + "\n" + hook + "\n" + user + "\n");
		LoadedSession loaded = SessionFileReader.read(file);
		assertThat(loaded.fileVersion()).isEqualTo(2);
		assertThat(loaded.needsRewrite()).isTrue();
		List<EntryLine> entries = loaded.tree().getEntries();
		assertThat(ids(loaded.tree())).containsExactly("h1", "u1");
		assertThat(entries.get(0).messageNode().get("role").asString()).isEqualTo("custom");
		assertThat(entries.get(0).messageNode().get("extra").asInt()).isEqualTo(1);
		assertThat(entries.get(1).json()).isEqualTo(user);
	}

	private static Path write(Path dir, String name, String content) throws IOException {
		return Files.writeString(dir.resolve(name), content);
	}

	private static List<String> ids(SessionTree tree) {
		return tree.getEntries().stream().map(EntryLine::id).toList();
	}

	private static String message(String text) {
		return "{\"type\":\"message\",\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}";
	}

	private static String compaction(String index) {
		return "{\"type\":\"compaction\",\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"summary\":\"s\",\"firstKeptEntryIndex\":" + index
				+ ",\"tokensBefore\":10}";
	}

}

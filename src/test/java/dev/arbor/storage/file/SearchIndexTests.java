package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.SearchHit;
import dev.arbor.storage.SearchPage;
import dev.arbor.storage.SearchQuery;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.NIOFSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The file store's Lucene index on a real folder: ranking, clauses, filters, paging, and a damaged index rebuilt. */
class SearchIndexTests {

	@TempDir
	Path folder;

	@Test
	void searchShouldRankMatchWordsPrefixesPhrasesAndApplyFilters() throws IOException {
		try (SearchIndex index = SearchIndex.open(this.folder.resolve("search"))) {
			assertThat(index.isFresh()).isTrue();
			index.add("s1", "/home/a", List.of(message("e1", "user", "2026-05-01T10:00:00.000Z", "configure the parser config"),
					message("e2", "assistant", "2026-05-01T11:00:00.000Z", "config"),
					message("e3", "assistant", "2026-05-01T12:00:00.000Z", "the words exact, not exact words"),
					message("e4", "user", "2026-05-01T13:00:00.000Z", "read env vars, then read vars env env")));
			index.add("s2", "/home/b", List.of(message("e1", "user", "2026-05-02T10:00:00.000Z", "a configuration and exact words"),
					message("e2", "user", "2026-05-02T11:00:00.000Z", "read env, then vars; env vars read")));
			index.commit();

			assertThat(ids(index.search(query("config")))).containsExactly("s1/e2", "s1/e1");
			assertThat(ids(index.search(query("conf*")))).containsExactlyInAnyOrder("s1/e1", "s1/e2", "s2/e1");
			assertThat(ids(index.search(query("\"exact words\"")))).containsExactlyInAnyOrder("s1/e3", "s2/e1");
			assertThat(ids(index.search(query("\"words exact\" not")))).containsExactly("s1/e3");
			// phrases of three and more words: the words next to each other, not merely their pairs somewhere
			assertThat(ids(index.search(query("\"read env vars\"")))).containsExactly("s1/e4");
			assertThat(ids(index.search(query("\"env vars read\"")))).containsExactly("s2/e2");
			assertThat(ids(index.search(query("\"read vars env env\"")))).containsExactly("s1/e4");
			assertThat(ids(index.search(query("\"vars env env read\"")))).isEmpty();
			assertThat(ids(index.search(query("\"read env\"")))).containsExactlyInAnyOrder("s1/e4", "s2/e2");
			assertThat(index.search(query("\"env vars\"")).total()).isEqualTo(2);
			assertThat(ids(index.search(SearchQuery.parse("conf*", "s2", null, null, null, null, 10, null)))).containsExactly("s2/e1");
			assertThat(ids(index.search(SearchQuery.parse("conf*", null, "/home/a", null, null, null, 10, null))))
				.containsExactlyInAnyOrder("s1/e1", "s1/e2");
			assertThat(ids(index.search(SearchQuery.parse("conf*", null, null, List.of("user"), null, null, 10, null))))
				.containsExactlyInAnyOrder("s1/e1", "s2/e1");
			assertThat(ids(index.search(SearchQuery.parse("conf*", null, null, null, "2026-05-01T11:00:00Z",
					"2026-05-02T10:00:00Z", 10, null)))).containsExactly("s1/e2");
			SearchHit hit = index.search(query("parser")).items().get(0);
			assertThat(hit.snippet()).isEqualTo("configure the parser config");
			assertThat(hit.highlights()).containsExactly(new int[] { 14, 20 });
			assertThat(hit.role()).isEqualTo("user");
			assertThat(hit.timestamp()).isEqualTo(1_777_629_600_000L);
		}
	}

	@Test
	void searchShouldPageWithoutRepeatsAndCountAll() throws IOException {
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			List<EntryLine> entries = new ArrayList<>();
			for (int i = 0; i < 25; i++) {
				entries.add(message("e" + i, "user", "2026-05-01T10:00:00.000Z", "needle " + "hay ".repeat(i)));
			}
			index.add("s1", null, entries);
			index.commit();
			List<String> seen = new ArrayList<>();
			String cursor = null;
			do {
				SearchPage page = index.search(SearchQuery.parse("needle", null, null, null, null, null, 10, cursor));
				assertThat(page.total()).isEqualTo(25);
				seen.addAll(ids(page));
				cursor = page.nextCursor();
			}
			while (cursor != null);
			assertThat(seen).hasSize(25).doesNotHaveDuplicates();
			assertThat(seen.get(0)).isEqualTo("s1/e0"); // the shortest text ranks first under BM25
		}
	}

	@Test
	void replaceAndDeleteShouldLeaveNoStaleEntries() throws IOException {
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			index.add("s1", null, List.of(message("e1", "user", "2026-05-01T10:00:00.000Z", "old words")));
			index.add("s2", null, List.of(message("e1", "user", "2026-05-01T10:00:00.000Z", "old words")));
			index.refresh();
			assertThat(ids(index.search(query("old")))).hasSize(2);
			index.replace("s1", null, List.of(message("e1", "user", "2026-05-01T10:00:00.000Z", "new words")));
			index.delete("s2");
			index.refresh();
			assertThat(ids(index.search(query("old")))).isEmpty();
			assertThat(ids(index.search(query("new")))).containsExactly("s1/e1");
		}
	}

	@Test
	void openShouldKeepACommittedIndexAndStartFreshOverGarbageOrAnotherVersion() throws IOException {
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			index.add("s1", null, List.of(message("e1", "user", "2026-05-01T10:00:00.000Z", "kept")));
			index.commit();
		}
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			assertThat(index.isFresh()).isFalse();
			assertThat(ids(index.search(query("kept")))).containsExactly("s1/e1");
		}
		try (Stream<Path> files = Files.list(this.folder)) {
			for (Path file : files.toList()) {
				Files.write(file, "garbage".getBytes(StandardCharsets.US_ASCII));
			}
		}
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			assertThat(index.isFresh()).isTrue();
			assertThat(index.search(query("kept")).items()).isEmpty();
		}
		try (IndexWriter writer = new IndexWriter(new NIOFSDirectory(this.folder),
				new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.CREATE))) {
			writer.commit(); // an index without this version's marker
		}
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			assertThat(index.isFresh()).isTrue();
		}
	}

	@Test
	void searchWhenIndexIsDamagedWhileOpenShouldAnswerPartialAndResetShouldRecover() throws IOException {
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			index.add("s1", null, List.of(message("e1", "user", "2026-05-01T10:00:00.000Z", "needle")));
			index.commit();
			assertThat(index.isFresh()).isTrue();
			try (Stream<Path> files = Files.list(this.folder)) {
				for (Path file : files.filter((f) -> !f.getFileName().toString().equals("write.lock")).toList()) {
					Files.write(file, new byte[0]); // truncated under the open reader
				}
			}
			SearchPage page = index.search(query("needle"));
			assertThat(page.partial()).isTrue();
			assertThat(page.items()).isEmpty();
			assertThat(index.isBroken()).isTrue();
			index.reset();
			assertThat(index.isBroken()).isFalse();
			index.add("s1", null, List.of(message("e1", "user", "2026-05-01T10:00:00.000Z", "needle")));
			index.commit();
			assertThat(ids(index.search(query("needle")))).containsExactly("s1/e1");
		}
		try (SearchIndex index = SearchIndex.open(this.folder)) {
			assertThat(index.isFresh()).isFalse();
			assertThat(ids(index.search(query("needle")))).containsExactly("s1/e1");
		}
	}

	private static SearchQuery query(String q) {
		return SearchQuery.parse(q, null, null, null, null, null, 10, null);
	}

	private static List<String> ids(SearchPage page) {
		return page.items().stream().map((hit) -> hit.sessionId() + "/" + hit.entryId()).toList();
	}

	private static EntryLine message(String id, String role, String timestamp, String text) {
		String json = "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":null,\"timestamp\":\"" + timestamp
				+ "\",\"message\":{\"role\":\"" + role + "\",\"content\":[{\"type\":\"text\",\"text\":\"" + text + "\"}]}}";
		return EntryLine.of(json.getBytes(StandardCharsets.UTF_8));
	}

}

package dev.arbor.storage.postgres;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.arbor.session.Json;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.InvalidRequestParameterException;
import dev.arbor.storage.SearchHit;
import dev.arbor.storage.SearchPage;
import dev.arbor.storage.SearchQuery;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Search in the PostgreSQL store, on a real database: what matches (words, prefixes, phrases, every filter), in
 * which order, page after page, with highlights that point into the snippet; entries written, forked and deleted
 * are found or gone as soon as their transaction commits; sessions stored before search are found after start-up;
 * no query, however hostile, is an SQL error.
 */
@RequiresPostgres
class PostgresSessionSearchTests {

	StoreDatabase database;

	PostgresSessionStore store;

	PostgresSessionSearch search;

	@BeforeEach
	void database() {
		this.database = new StoreDatabase();
		this.store = this.database.store();
		this.search = new PostgresSessionSearch(this.database.jdbc, this.database.transactions);
	}

	@AfterEach
	void close() throws Exception {
		this.database.close();
	}

	@Test
	void anEntryWithTheWordTwiceOrInAShortTextShouldRankAboveOneWithItOnceInALongText() {
		importSession("rank", "/work", entry("long", "user", "2026-01-01T00:00:00Z",
				"the config is one word among many other words in this rather long message about nothing much at all"),
				entry("twice", "user", "2026-01-01T00:00:01Z", "config here and config there, then other words"),
				entry("short", "user", "2026-01-01T00:00:02Z", "config please"));
		List<String> ids = ids(search("config"));
		assertThat(ids).containsExactlyInAnyOrder("twice", "short", "long");
		assertThat(ids.get(2)).isEqualTo("long");
		assertThat(search("config").items().get(0).score()).isGreaterThan(search("config").items().get(2).score());
	}

	@Test
	void aPhraseShouldMatchItsWordsNextToEachOtherInOrderOnly() {
		importSession("phrase", "/work", entry("together", "user", "2026-01-01T00:00:00Z", "use the Exact Words here"),
				entry("reversed", "user", "2026-01-01T00:00:01Z", "words exact, the other way"),
				entry("apart", "user", "2026-01-01T00:00:02Z", "exact and other words"));
		assertThat(ids(search("\"exact words\""))).containsExactly("together");
		assertThat(ids(search("exact words"))).containsExactlyInAnyOrder("together", "reversed", "apart");
		assertThat(ids(search("\"exact words"))).as("a quote left open runs to the end").containsExactly("together");
	}

	@Test
	void aPrefixShouldMatchTheWordsItBegins() {
		importSession("prefix", "/work", entry("configuration", "user", "2026-01-01T00:00:00Z", "the Configuration file"),
				entry("confirm", "user", "2026-01-01T00:00:01Z", "please confirm"),
				entry("icon", "user", "2026-01-01T00:00:02Z", "an iconfig icon"));
		assertThat(ids(search("conf*"))).containsExactlyInAnyOrder("configuration", "confirm");
		assertThat(ids(search("conf"))).as("without the star, the word itself").isEmpty();
	}

	@Test
	void eachFilterShouldKeepOnlyTheEntriesItNames() {
		importSession("filter-a", "/work/a", entry("a-user", "user", "2026-01-01T00:00:00Z", "needle one"),
				entry("a-assistant", "assistant", "2026-02-01T00:00:00Z", "needle two"));
		importSession("filter-b", "/work/b", entry("b-user", "user", "2026-03-01T00:00:00Z", "needle three"));
		assertThat(ids(search("needle"))).hasSize(3);
		assertThat(ids(query("needle", "filter-a", null, null, null, null))).containsExactlyInAnyOrder("a-user",
				"a-assistant");
		assertThat(ids(query("needle", null, "/work/b", null, null, null))).containsExactly("b-user");
		assertThat(ids(query("needle", null, "/work", null, null, null))).as("cwd is exact").isEmpty();
		assertThat(ids(query("needle", null, null, List.of("assistant"), null, null))).containsExactly("a-assistant");
		assertThat(ids(query("needle", null, null, List.of("user,assistant"), null, null))).hasSize(3);
		assertThat(ids(query("needle", null, null, null, "2026-02-01T00:00:00Z", null)))
			.as("after is inclusive")
			.containsExactlyInAnyOrder("a-assistant", "b-user");
		assertThat(ids(query("needle", null, null, null, null, "2026-02-01T00:00:00Z"))).as("before is exclusive")
			.containsExactly("a-user");
		assertThat(ids(query("needle", "filter-a", "/work/a", List.of("user"), "2025-12-31T00:00:00+01:00",
				"2026-01-02T00:00:00Z")))
			.containsExactly("a-user");
	}

	@Test
	void toolCallsResultsSummariesAndLabelsShouldBeSearchedUnderTheirRoles() {
		String id = importSession("kinds", "/work", entry("plain", "user", "2026-01-01T00:00:00Z", "start"));
		ObjectNode call = Json.newObject().put("type", "message");
		ObjectNode message = call.putObject("message").put("role", "assistant");
		message.putArray("content")
			.addObject()
			.put("type", "toolCall")
			.put("id", "call-1")
			.put("name", "bash")
			.putObject("arguments")
			.put("command", "grep zebrafish");
		ObjectNode result = Json.newObject().put("type", "message");
		result.putObject("message")
			.put("role", "toolResult")
			.put("toolCallId", "call-1")
			.put("toolName", "bash")
			.putArray("content")
			.addObject()
			.put("type", "text")
			.put("text", "zebrafish found");
		this.store.append(id, ExpectedLeaf.ANY, List.of(call, result));
		this.store.appendBranchSummary(id, ExpectedLeaf.ANY, null, "summary of zebrafish work", null, null);
		assertThat(search("zebrafish").items()).extracting(SearchHit::role)
			.containsExactlyInAnyOrder("assistant", "toolResult", "branchSummary");
		assertThat(query("zebrafish", null, null, List.of("branchSummary"), null, null).items()).hasSize(1);
	}

	@Test
	void aRoleWithANulShouldBeStoredAndReportedAsTheEntryHasIt() {
		importSession("nul-role", "/work", entry("nul", "us\u0000er", "2026-01-01T00:00:00Z", "strange marmot"));
		assertThat(search("marmot").items()).extracting(SearchHit::role).containsExactly("us\u0000er");
		assertThat(query("marmot", null, null, List.of("user"), null, null).items()).isEmpty();
	}

	@Test
	void pagesShouldGoThroughEveryHitOnceInAStableOrder() {
		List<String> entries = new ArrayList<>();
		for (int i = 0; i < 25; i++) {
			entries.add(entry("e" + i, "user", "2026-01-01T00:00:00Z", "same page word"));
		}
		importSession("paging", "/work", entries.toArray(String[]::new));
		Set<String> seen = new HashSet<>();
		String cursor = null;
		int pages = 0;
		do {
			SearchPage page = this.search
				.search(SearchQuery.parse("page", null, null, null, null, null, 10, cursor));
			assertThat(page.total()).isEqualTo(25);
			assertThat(page.partial()).isFalse();
			for (SearchHit hit : page.items()) {
				assertThat(seen.add(hit.entryId())).as("seen once: " + hit.entryId()).isTrue();
			}
			cursor = page.nextCursor();
			pages++;
		}
		while (cursor != null);
		assertThat(pages).isEqualTo(3);
		assertThat(seen).hasSize(25);
	}

	@Test
	void highlightsShouldPointAtTheMatchedWordsInTheSnippet() {
		importSession("highlight", "/work", entry("h", "user", "2026-01-01T00:00:00Z",
				"x ".repeat(400) + "the Needle and the needlework, then " + "y ".repeat(400)));
		SearchHit hit = search("needle*").items().get(0);
		assertThat(hit.highlights()).isNotEmpty();
		for (int[] highlight : hit.highlights()) {
			assertThat(highlight[0]).isBetween(0, highlight[1]);
			assertThat(highlight[1]).isLessThanOrEqualTo(hit.snippet().length());
			assertThat(hit.snippet().substring(highlight[0], highlight[1]).toLowerCase()).startsWith("needle");
		}
	}

	@Test
	void aHostileQueryShouldBeRefusedCleanlyOrAnsweredNeverAnSqlError() {
		importSession("hostile", "/work", entry("h", "user", "2026-01-01T00:00:00Z", "and or not it's a \\ back slash"));
		List<String> queries = List.of("*:*", "AND(", "'", "\\", ":*", "<->", "!", "&|", "it's", "a'b", "back\\slash",
				"\"unbalanced", "un\"balanced\"\"", "'; DROP TABLE arbor_entry; --", "x:* & !y", "(((", "a <-> b",
				"é*", "日本語", "\u0000nul", "w".repeat(1_000), "ab* ".repeat(250), "w".repeat(1_001));
		for (String q : queries) {
			try {
				SearchPage page = search(q);
				assertThat(page.total()).as(q).isGreaterThanOrEqualTo(0);
			}
			catch (InvalidRequestParameterException ex) {
				assertThat(ex.getMessage()).as(q).isNotBlank();
			}
		}
		assertThat(ids(search("it's"))).as("it and s, both words of the entry").containsExactly("h");
		assertThat(ids(search("back\\slash"))).containsExactly("h");
		assertThat(this.database.jdbc.queryForObject("SELECT count(*) FROM arbor_entry", Long.class)).isEqualTo(1);
	}

	@Test
	void appendedForkedAndDeletedEntriesShouldShowInAndLeaveResultsAtOnce() {
		String id = importSession("live", "/work", entry("first", "user", "2026-01-01T00:00:00Z", "nothing yet"));
		assertThat(search("walrus").total()).isZero();
		this.store.append(id, ExpectedLeaf.ANY, List.of(user("a walrus appears")));
		assertThat(search("walrus").total()).isEqualTo(1);
		String fork = this.store.fork(id).id();
		assertThat(search("walrus").items()).extracting(SearchHit::sessionId).containsExactlyInAnyOrder(id, fork);
		assertThat(this.database.jdbc.queryForObject("SELECT convert_from(cwd, 'UTF8') FROM arbor_session WHERE id = ?",
				String.class, fork))
			.as("the fork's cwd, for the filter")
			.isEqualTo("/work");
		this.store.delete(id, ExpectedLeaf.ANY);
		assertThat(search("walrus").items()).extracting(SearchHit::sessionId).containsExactly(fork);
		assertThat(this.database.jdbc.queryForObject("SELECT count(*) FROM arbor_search WHERE session_id = ?",
				Long.class, id))
			.isZero();
	}

	@Test
	void sessionsStoredBeforeSearchShouldBeFoundAfterStartUp() {
		importSession("old", "/work/old", entry("o1", "user", "2026-01-01T00:00:00Z", "ancient scroll"),
				entry("o2", "assistant", "2026-01-01T00:00:01Z", "an ancient reply"));
		// as the rows were before V5__search.sql
		this.database.jdbc.update("DELETE FROM arbor_search");
		this.database.jdbc.update("UPDATE arbor_session SET cwd = NULL, search_ready = false");
		assertThat(search("ancient").total()).isZero();
		this.database.store(); // a replica starting up
		assertThat(ids(query("ancient", null, "/work/old", null, null, null))).containsExactlyInAnyOrder("o1", "o2");
		assertThat(this.database.jdbc.queryForObject("SELECT count(*) FROM arbor_session WHERE NOT search_ready",
				Long.class))
			.isZero();
	}

	@Test
	void theVectorShouldHoldEachWordAtItsPositions() {
		assertThat(SearchTable.vector("Config, config! it's")).isEqualTo("'config':1,2 'it':3 's':4");
		assertThat(SearchTable.vector("!!!")).isEmpty();
		assertThat(this.database.jdbc.queryForObject("SELECT CAST(? AS tsvector)::text", String.class,
				SearchTable.vector("b a b")))
			.isEqualTo("'a':2 'b':1,3");
	}

	private SearchPage search(String q) {
		return query(q, null, null, null, null, null);
	}

	private SearchPage query(String q, @Nullable String sessionId, @Nullable String cwd, @Nullable List<String> roles,
			@Nullable String after, @Nullable String before) {
		return this.search.search(SearchQuery.parse(q, sessionId, cwd, roles, after, before, SearchQuery.MAX_LIMIT, null));
	}

	private static List<String> ids(SearchPage page) {
		return page.items().stream().map(SearchHit::entryId).toList();
	}

	/** Imports a session of these entries (each the parent of the next) and returns its id. */
	private String importSession(String id, String cwd, String... entries) {
		StringBuilder file = new StringBuilder();
		ObjectNode header = Json.newObject()
			.put("type", "session")
			.put("version", 3)
			.put("id", id)
			.put("timestamp", "2026-01-01T00:00:00.000Z")
			.put("cwd", cwd);
		file.append(Json.toString(header)).append('\n');
		String parent = null;
		for (String entry : entries) {
			ObjectNode node = Json.parseObject(entry.getBytes(StandardCharsets.UTF_8));
			if (parent != null) {
				node.put("parentId", parent);
			}
			else {
				node.putNull("parentId");
			}
			parent = node.get("id").asString();
			file.append(Json.toString(node)).append('\n');
		}
		return this.store.importSession(file.toString().getBytes(StandardCharsets.UTF_8), false).id();
	}

	private static String entry(String id, String role, String timestamp, String text) {
		ObjectNode entry = Json.newObject().put("type", "message").put("id", id).put("timestamp", timestamp);
		ObjectNode message = entry.putObject("message").put("role", role);
		if ("assistant".equals(role)) {
			message.putArray("content").addObject().put("type", "text").put("text", text);
		}
		else {
			message.put("content", text);
		}
		return Json.toString(entry);
	}

	private static ObjectNode user(String text) {
		ObjectNode entry = Json.newObject().put("type", "message");
		entry.putObject("message").put("role", "user").put("content", text);
		return entry;
	}

}

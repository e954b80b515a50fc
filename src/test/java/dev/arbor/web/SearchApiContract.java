package dev.arbor.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /search} over HTTP (docs/API.md#search): the query language, each filter, paging, highlights, hostile
 * queries and a deleted session's hits. A contract: {@link FileSearchApiTests} and {@link PostgresSearchApiTests}
 * run it on each store. Every test searches for a word of its own, so the sessions of the others are never found.
 * The file store writes its index on a thread of its own, so results are awaited, never taken at once.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class SearchApiContract {

	static final Duration DEADLINE = Duration.ofSeconds(5);

	@Autowired
	RestTestClient client;

	@Test
	void aPhraseShouldFindItsWordsTogetherAndWordsShouldFindThemApart() {
		String word = word();
		String session = ApiSessions.create(this.client);
		String together = ApiSessions.appendUser(this.client, session, word + " alpha beta");
		String apart = ApiSessions.appendUser(this.client, session, word + " beta gamma alpha");

		assertThat(entryIds(await(Map.of("q", word + " alpha beta"), hits(2)))).containsExactlyInAnyOrder(together, apart);
		assertThat(entryIds(search(Map.of("q", word + " \"alpha beta\"")))).containsExactly(together);
		assertThat(entryIds(search(Map.of("q", word + " \"beta alpha\"")))).isEmpty();
	}

	@Test
	void anEntryDenseWithTheWordsShouldRankAboveOneWhereTheyAreLost() {
		String word = word();
		String session = ApiSessions.create(this.client);
		String lost = ApiSessions.appendUser(this.client, session,
				word + " kiwi " + "and a great many other words about nothing in particular ".repeat(20));
		String dense = ApiSessions.appendUser(this.client, session, word + " kiwi kiwi");

		JsonNode page = await(Map.of("q", word + " kiwi"), hits(2));
		assertThat(entryIds(page)).containsExactly(dense, lost);
		assertThat(page.get("items").get(0).get("score").asDouble())
			.isGreaterThan(page.get("items").get(1).get("score").asDouble());
		assertThat(page.get("total").asLong()).isEqualTo(2);
		assertThat(page.get("nextCursor").isNull()).isTrue();
	}

	@Test
	void aPrefixShouldFindEveryWordThatBeginsSo() {
		String word = word();
		String session = ApiSessions.create(this.client);
		String configuration = ApiSessions.appendUser(this.client, session, word + " the configuration");
		String conflict = ApiSessions.appendAssistant(this.client, session, word + " a Conflict");
		ApiSessions.appendUser(this.client, session, word + " cone and icon");

		assertThat(entryIds(await(Map.of("q", word + " conf*"), hits(2)))).containsExactlyInAnyOrder(configuration,
				conflict);
		assertThat(entryIds(search(Map.of("q", word + " configuration")))).containsExactly(configuration);
	}

	@Test
	void sessionIdCwdAndRoleShouldEachKeepOnlyTheirEntries() {
		String word = word();
		String here = ApiSessions.create(this.client);
		String elsewhere = ApiSessions.create(this.client, "/elsewhere/" + word);
		String question = ApiSessions.appendUser(this.client, here, word + " question");
		String answer = ApiSessions.appendAssistant(this.client, here, word + " answer");
		String other = ApiSessions.appendUser(this.client, elsewhere, word + " other");
		await(Map.of("q", word), hits(3));

		assertThat(entryIds(search(Map.of("q", word, "sessionId", here)))).containsExactlyInAnyOrder(question, answer);
		assertThat(entryIds(search(Map.of("q", word, "cwd", "/elsewhere/" + word)))).containsExactly(other);
		assertThat(entryIds(search(Map.of("q", word, "cwd", "/elsewhere")))).isEmpty();
		assertThat(entryIds(search(Map.of("q", word, "role", "assistant")))).containsExactly(answer);
		assertThat(entryIds(search(Map.of("q", word, "role", "user")))).containsExactlyInAnyOrder(question, other);
		assertThat(entryIds(search(Map.of("q", word, "role", "user,assistant")))).hasSize(3);
		assertThat(entryIds(search(Map.of("q", word, "role", "label")))).isEmpty();
		JsonNode hit = search(Map.of("q", word, "sessionId", here, "role", "assistant")).get("items").get(0);
		assertThat(hit.get("sessionId").asString()).isEqualTo(here);
		assertThat(hit.get("role").asString()).isEqualTo("assistant");
		assertThat(hit.get("timestamp").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
	}

	@Test
	void afterAndBeforeShouldKeepTheEntriesOfTheirTime() {
		String word = word();
		String id = UUID.randomUUID().toString();
		String file = """
				{"type":"session","version":3,"id":"%1$s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/work"}
				{"type":"message","id":"e0000001","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":"%2$s early"}}
				{"type":"message","id":"e0000002","parentId":"e0000001","timestamp":"2025-06-01T12:00:00.000Z","message":{"role":"user","content":"%2$s middle"}}
				{"type":"message","id":"e0000003","parentId":"e0000002","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"%2$s late"}}
				""".formatted(id, word);
		ApiSessions.importOnce(this.client, id, file.getBytes(java.nio.charset.StandardCharsets.UTF_8));
		await(Map.of("q", word), hits(3));

		assertThat(entryIds(search(Map.of("q", word, "after", "2025-06-01T12:00:00Z")))).containsExactlyInAnyOrder(
				"e0000002", "e0000003");
		assertThat(entryIds(search(Map.of("q", word, "before", "2025-06-01T12:00:00Z")))).containsExactly("e0000001");
		assertThat(entryIds(search(Map.of("q", word, "after", "2025-03-01T00:00:00+02:00", "before",
				"2025-12-31T00:00:00Z"))))
			.containsExactly("e0000002");
		assertThat(search(Map.of("q", word, "before", "2025-06-01T12:00:00Z")).get("items").get(0).get("timestamp")
			.asString()).isEqualTo("2025-01-01T00:00:00.000Z");
	}

	@Test
	void pagesShouldGoThroughEveryHitOnceAndEnd() {
		String word = word();
		String session = ApiSessions.create(this.client);
		List<String> appended = ApiSessions.appendUsers(this.client, session, word, 7);
		JsonNode first = await(Map.of("q", word, "limit", "3"), page -> page.get("total").asLong() == 7);

		List<String> seen = new ArrayList<>(entryIds(first));
		List<Integer> sizes = new ArrayList<>(List.of(seen.size()));
		JsonNode page = first;
		while (!page.get("nextCursor").isNull()) {
			page = search(Map.of("q", word, "limit", "3", "cursor", page.get("nextCursor").asString()));
			seen.addAll(entryIds(page));
			sizes.add(page.get("items").size());
			assertThat(sizes).as("pages end").hasSizeLessThan(5);
		}
		assertThat(sizes).containsExactly(3, 3, 1);
		assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(appended);
	}

	@Test
	void highlightsShouldMarkTheMatchedWordsInsideTheSnippet() {
		String word = word();
		String session = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, session, "Read the CONFIGURATION file.\nThen " + word + " the env vars");
		ApiSessions.appendAssistant(this.client, session,
				"Words before. ".repeat(40) + word + " configured, then read env vars again");

		JsonNode page = await(Map.of("q", word + " config* \"env vars\""), hits(2));
		for (JsonNode hit : page.get("items")) {
			String snippet = hit.get("snippet").asString();
			assertThat(snippet).doesNotContain("\n").hasSizeLessThanOrEqualTo(200);
			List<String> marked = new ArrayList<>();
			int end = 0;
			for (JsonNode highlight : hit.get("highlights")) {
				int start = highlight.get(0).asInt();
				assertThat(start).isGreaterThanOrEqualTo(end);
				end = highlight.get(1).asInt();
				assertThat(end).isGreaterThan(start).isLessThanOrEqualTo(snippet.length());
				marked.add(snippet.substring(start, end).toLowerCase(Locale.ROOT));
			}
			assertThat(marked).contains(word.toLowerCase(Locale.ROOT), "env vars");
			assertThat(marked).anyMatch(each -> each.startsWith("config"));
			assertThat(marked).allMatch(each -> each.equals(word.toLowerCase(Locale.ROOT)) || each.equals("env vars")
					|| each.startsWith("config"));
		}
	}

	@Test
	void hostileQueriesShouldBeRefusedNamingQOrSearchedAsWordsNeverAServerError() {
		List<String> queries = List.of("*:*", "AND(", "****", "\"unbalanced", "unbalanced\"", "\"\"", "a:b OR c~2^3",
				"'; DROP TABLE arbor_search; --", "x".repeat(5_000), "a,".repeat(1_500), "\u0000", "\uD800", "()[]{}",
				"-", "*", "a*", "ab*", "\"a b\" \"c", "!!!", "\u00e9t\u00e9*");
		for (String q : queries) {
			EntityExchangeResult<byte[]> result = this.client.get()
				.uri("/search?q={q}", q)
				.exchange()
				.expectBody()
				.returnResult();
			HttpStatus status = HttpStatus.valueOf(result.getStatus().value());
			assertThat(status).as("q=%s", abbreviate(q)).isIn(HttpStatus.OK, HttpStatus.BAD_REQUEST);
			JsonNode body = ApiSessions.json(result.getResponseBody());
			if (status == HttpStatus.BAD_REQUEST) {
				assertThat(body.get("type").asString()).as("q=%s", abbreviate(q)).isEqualTo(ApiSessions.PROBLEMS + "invalid-parameter");
				assertThat(body.get("parameter").asString()).as("q=%s", abbreviate(q)).isEqualTo("q");
			}
			else {
				assertThat(body.get("items").isArray()).isTrue();
			}
		}
		assertThat(status("/search?q={q}", "x".repeat(5_000))).isEqualTo(400);
		// 10 KB does not fit the request line Jetty reads (8 KB): refused there, before any search, as URI Too Long
		EntityExchangeResult<byte[]> long10k = this.client.get()
			.uri("/search?q={q}", "x".repeat(10_240))
			.exchange()
			.expectBody()
			.returnResult();
		assertThat(long10k.getStatus().value()).isEqualTo(414);
		JsonNode tooLong = ApiSessions.json(long10k.getResponseBody());
		assertThat(tooLong.get("status").asInt()).isEqualTo(414);
		assertThat(tooLong.get("type").asString()).isEqualTo(ApiSessions.PROBLEMS + "client-error");
		assertThat(tooLong.get("detail").asString()).as("says what is too long, and how long it may be")
			.contains("request line")
			.contains("8 KB");
		assertThat(status("/search?q={q}", "****")).isEqualTo(400);
		assertThat(status("/search?q={q}", "*:* AND(")).as("Lucene syntax as the word and").isEqualTo(200);
		assertThat(status("/search?q={q}", "*:*")).as("no word").isEqualTo(400);
	}

	@Test
	void eachBadParameterShouldBeA400NamingIt() {
		Map<String, String> bad = new LinkedHashMap<>();
		bad.put("/search", "q");
		bad.put("/search?q=a&sessionId=-not-an-id", "sessionId");
		bad.put("/search?q=a&role=user,", "role");
		bad.put("/search?q=a&role=us er", "role");
		bad.put("/search?q=a&role=user&role=assistant", "role");
		bad.put("/search?q=a&after=yesterday", "after");
		bad.put("/search?q=a&before=2025-01-01", "before");
		bad.put("/search?q=a&limit=0", "limit");
		bad.put("/search?q=a&limit=101", "limit");
		bad.put("/search?q=a&limit=ten", "limit");
		bad.put("/search?q=a&cursor=nope", "cursor");
		bad.forEach((uri, parameter) -> {
			assertThat(this.client.get().uri(uri).exchange().returnResult(byte[].class).getStatus().value()).as(uri)
				.isEqualTo(400);
			JsonNode problem = ApiSessions.problem(this.client.get().uri(uri).exchange(), HttpStatus.BAD_REQUEST,
					"invalid-parameter");
			if (problem.has("parameter")) {
				assertThat(problem.get("parameter").asString()).as(uri).isEqualTo(parameter);
			}
			else {
				assertThat(problem.get("detail").asString()).as(uri).contains(parameter);
			}
		});
	}

	@Test
	void aDeletedSessionsHitsShouldLeave() {
		String word = word();
		String gone = ApiSessions.create(this.client);
		String kept = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, gone, word + " doomed");
		String stays = ApiSessions.appendUser(this.client, kept, word + " stays");
		await(Map.of("q", word), hits(2));

		this.client.delete().uri("/sessions/{id}", gone).exchange().expectStatus().isNoContent();
		assertThat(entryIds(await(Map.of("q", word), hits(1)))).containsExactly(stays);
	}

	/** A word no other test's entries have. */
	static String word() {
		return "w" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
	}


	/** One search, which must answer 200. */
	JsonNode search(Map<String, String> parameters) {
		String template = "/search?" + parameters.keySet()
			.stream()
			.map(name -> name + "={" + name + "}")
			.collect(Collectors.joining("&"));
		return ApiSessions.body(this.client.get().uri(template, parameters).exchange().expectStatus().isOk());
	}

	/** Searches until the page is as expected (and not partial) or the deadline passes; the last page. */
	JsonNode await(Map<String, String> parameters, Predicate<JsonNode> expected) {
		return await(parameters, expected, DEADLINE);
	}

	JsonNode await(Map<String, String> parameters, Predicate<JsonNode> expected, Duration deadline) {
		long end = System.nanoTime() + deadline.toNanos();
		while (true) {
			JsonNode page = search(parameters);
			if (expected.test(page) && !page.get("partial").asBoolean()) {
				return page;
			}
			assertThat(System.nanoTime()).as("search %s as expected within %s; last %s", parameters, deadline, page)
				.isLessThan(end);
			try {
				Thread.sleep(25);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	static Predicate<JsonNode> hits(int count) {
		return page -> page.get("items").size() == count && page.get("total").asLong() == count;
	}

	static List<String> entryIds(JsonNode page) {
		List<String> ids = new ArrayList<>();
		page.get("items").forEach(hit -> ids.add(hit.get("entryId").asString()));
		Set<String> distinct = new HashSet<>(ids);
		assertThat(distinct).as("entries of one page").hasSameSizeAs(ids);
		return ids;
	}

	int status(String template, String value) {
		return this.client.get().uri(template, value).exchange().returnResult(byte[].class).getStatus().value();
	}

	private static String abbreviate(String q) {
		return (q.length() <= 40) ? q : q.substring(0, 40) + "… (" + q.length() + " characters)";
	}

}

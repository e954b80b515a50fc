package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.arbor.TestSessions;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.EntityExchangeResult;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sessions as wholes over HTTP (docs/API.md#sessions): create, list, get, delete, import, export. A contract:
 * {@link FileSessionApiTests} and {@link PostgresSessionApiTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class SessionApiContract {

	private static final String PROBLEMS = "https://arbor.dev/problems/";

	private static final MediaType NDJSON = MediaType.parseMediaType("application/x-ndjson");

	private static final String UUID_V7 = "[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

	private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

	@Autowired
	RestTestClient client;

	/** What the store holds, read behind the application's back. */
	abstract StoredState stored();

	/** Both test sessions hold the same session id: each test that imports one starts without it. */
	@AfterEach
	void deleteImportedTestSessions() {
		this.client.delete().uri("/sessions/{id}", testSessionId()).exchange();
	}

	@Test
	void createSessionShouldReturn201WithLocationRootETagAndTheStoredHeader() {
		EntityExchangeResult<byte[]> result = this.client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"cwd\":\"/home/me/project\",\"title\":\"Fix the flaky test\",\"parentSession\":\"/old/session.jsonl\"}")
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.returnResult();
		JsonNode session = ApiSessions.json(result.getResponseBody());
		String id = session.get("id").asString();
		assertThat(id).matches(UUID_V7);
		assertThat(result.getResponseHeaders().getLocation()).hasToString("/sessions/" + id);
		assertThat(session.get("version").asInt()).isEqualTo(3);
		assertThat(session.get("cwd").asString()).isEqualTo("/home/me/project");
		assertThat(session.get("title").asString()).isEqualTo("Fix the flaky test");
		assertThat(session.get("parentSession").asString()).isEqualTo("/old/session.jsonl");
		assertThatIsAnEmptySession(session);
		String createdAt = session.get("createdAt").asString();
		assertThat(session.get("header")).isEqualTo(json("{\"type\":\"session\",\"version\":3,\"id\":\"" + id
				+ "\",\"timestamp\":\"" + createdAt
				+ "\",\"cwd\":\"/home/me/project\",\"title\":\"Fix the flaky test\",\"parentSession\":\"/old/session.jsonl\"}"));
		assertThat(lines(stored().sessionBytes(id))).containsExactly(session.get("header"));
	}

	@Test
	void createSessionWithEmptyObjectShouldStoreAnEmptyCwdAndNoTitle() {
		JsonNode session = ApiSessions.body(this.client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{}")
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectHeader()
			.valueMatches(HttpHeaders.LOCATION, "/sessions/" + UUID_V7));
		assertThatIsABareSession(session);
	}

	@Test
	void createSessionWithoutBodyShouldCreateABareSession() {
		JsonNode session = ApiSessions.body(this.client.post()
			.uri("/sessions")
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectHeader()
			.valueMatches(HttpHeaders.LOCATION, "/sessions/" + UUID_V7));
		assertThatIsABareSession(session);
	}

	@Test
	void createSessionWithAFieldItDoesNotTakeShouldBeA400NamingItAndWriteNothing() {
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.problem(this.client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"cwd\": \"/work\", \"parentSesion\": \"/elsewhere/a.jsonl\"}")
			.exchange(), HttpStatus.BAD_REQUEST, "invalid-field");
		assertThat(problem.get("field").asString()).isEqualTo("parentSesion");
		assertThat(problem.get("detail").asString())
			.isEqualTo("parentSesion is not a field of this body (it takes cwd, parentSession, title)");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void listSessionsShouldPutTheMostRecentlyUpdatedFirst() {
		String cwd = uniqueCwd();
		String oldest = create(cwd);
		String middle = create(cwd);
		String newest = create(cwd);
		assertThat(listIds(cwd)).containsExactly(newest, middle, oldest);
		JsonNode entry = ApiSessions.append(this.client, oldest,
				"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"back to this one\"}}");
		JsonNode page = list("/sessions?cwd={cwd}", cwd);
		assertThat(ids(page.get("items"))).containsExactly(oldest, newest, middle);
		assertThat(page.get("items").get(0).get("updatedAt").asString()).isEqualTo(entry.get("timestamp").asString());
		assertThat(page.get("items").get(0).get("entryCount").asInt()).isEqualTo(1);
		assertThat(page.get("nextCursor").isNull()).isTrue();
	}

	@Test
	void listSessionsShouldPutTheSessionChangedLastFirstWhateverTheTimesOfItsEntries() {
		String cwd = uniqueCwd();
		String newerLast = "{\"type\":\"session\",\"version\":3,\"id\":\"order-1\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"" + cwd + "\"}\n"
				+ "{\"type\":\"message\",\"id\":\"a0000001\",\"parentId\":null,\"timestamp\":\"2025-11-21T00:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"later\"}}\n"
				+ "{\"type\":\"message\",\"id\":\"a0000002\",\"parentId\":\"a0000001\",\"timestamp\":\"2025-11-20T00:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"earlier\"}}\n";
		String inBetween = "{\"type\":\"session\",\"version\":3,\"id\":\"order-2\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"" + cwd + "\"}\n"
				+ "{\"type\":\"message\",\"id\":\"b0000001\",\"parentId\":null,\"timestamp\":\"2025-11-20T12:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"noon\"}}\n";
		importFile(newerLast.getBytes(StandardCharsets.UTF_8));
		importFile(inBetween.getBytes(StandardCharsets.UTF_8));
		JsonNode page = list("/sessions?cwd={cwd}", cwd);
		assertThat(ids(page.get("items"))).containsExactly("order-2", "order-1"); // imported last, though its entry is older
		assertThat(page.get("items").get(1).get("updatedAt").asString()).isEqualTo("2025-11-21T00:00:00.000Z");
		assertThat(page.get("items").get(0).get("changedAt").asString())
			.isGreaterThanOrEqualTo(page.get("items").get(1).get("changedAt").asString());
	}

	@Test
	void listSessionsWhenCursorIsEmptyShouldStartAtTheFirstPage() {
		String cwd = uniqueCwd();
		String only = create(cwd);
		assertThat(ids(list("/sessions?cwd={cwd}&cursor=", cwd).get("items"))).containsExactly(only);
	}

	@Test
	void createSessionWhenNoAcceptableResponseShouldReturn406AndWriteNothing() {
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions")
			.accept(MediaType.parseMediaType("text/csv"))
			.contentType(MediaType.APPLICATION_JSON)
			.body("{}")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.NOT_ACCEPTABLE)
			.expectHeader()
			.doesNotExist(HttpHeaders.LOCATION)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void listSessionsWithCwdShouldReturnOnlyThoseOfThatDirectory() {
		String cwd = uniqueCwd();
		String other = uniqueCwd();
		String first = create(cwd);
		create(other);
		String second = create(cwd);
		create(cwd + "/sub");
		JsonNode page = list("/sessions?cwd={cwd}", cwd);
		assertThat(ids(page.get("items"))).containsExactly(second, first);
		assertThat(page.get("items")).allSatisfy(session -> assertThat(session.get("cwd").asString()).isEqualTo(cwd));
		assertThat(ids(list("/sessions").get("items"))).contains(first, second);
	}

	@Test
	void listSessionsWithLimitShouldPageThroughEverySessionExactlyOnce() {
		String cwd = uniqueCwd();
		List<String> created = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			created.add(create(cwd));
		}
		List<String> visited = new ArrayList<>();
		List<Integer> pageSizes = new ArrayList<>();
		JsonNode page = list("/sessions?cwd={cwd}&limit=2", cwd);
		while (true) {
			pageSizes.add(page.get("items").size());
			visited.addAll(ids(page.get("items")));
			if (page.get("nextCursor").isNull()) {
				break;
			}
			page = list("/sessions?cwd={cwd}&limit=2&cursor={cursor}", cwd, page.get("nextCursor").asString());
		}
		Collections.reverse(created);
		assertThat(pageSizes).containsExactly(2, 2, 1);
		assertThat(visited).containsExactlyElementsOf(created);
	}

	@Test
	void listSessionsWithoutCwdShouldPageThroughEverySessionExactlyOnce() {
		create(uniqueCwd());
		create(uniqueCwd());
		create(uniqueCwd());
		List<String> all = ids(list("/sessions?limit=1000").get("items"));
		List<String> visited = new ArrayList<>();
		String cursor = null;
		do {
			JsonNode page = (cursor != null) ? list("/sessions?limit=1&cursor={cursor}", cursor) : list("/sessions?limit=1");
			assertThat(page.get("items").size()).isEqualTo(1);
			visited.addAll(ids(page.get("items")));
			cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
		}
		while (cursor != null);
		assertThat(visited).hasSizeGreaterThanOrEqualTo(3).containsExactlyElementsOf(all);
	}

	@Test
	void listSessionsWithQShouldKeepThoseWithAWordBeginningWithEachOfItsWords() {
		String cwd = uniqueCwd() + "/zebra-project";
		String titled = ApiSessions.body(this.client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("cwd", cwd, "title", "Flaky test hunt"))
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString();
		String named = importListed(cwd, "2025-03-01T00:00:00.000Z", "Deploy pipeline", "set up the runners", 2);
		String asked = importListed(cwd, "2025-02-01T00:00:00.000Z", null, "Why does the BUILD fail?", 1);
		importListed(uniqueCwd(), "2025-02-01T00:00:00.000Z", "deploy elsewhere", "build it", 1);

		assertThat(ids(list("/sessions?cwd={cwd}&q={q}", cwd, "fla te").get("items"))).containsExactly(titled);
		assertThat(ids(list("/sessions?cwd={cwd}&q={q}", cwd, "DEPLOY").get("items"))).containsExactly(named);
		assertThat(ids(list("/sessions?cwd={cwd}&q={q}", cwd, "buil").get("items"))).containsExactly(asked);
		assertThat(ids(list("/sessions?cwd={cwd}&q={q}", cwd, "runners deploy").get("items"))).containsExactly(named);
		assertThat(ids(list("/sessions?cwd={cwd}&q={q}", cwd, "ild").get("items"))).as("inside a word").isEmpty();
		assertThat(ids(list("/sessions?cwd={cwd}&q={q}", cwd, "deploy hunt").get("items"))).as("every word").isEmpty();
		assertThat(ids(list("/sessions?q={q}", cwd.substring(1)).get("items"))).as("the cwd's words")
			.containsExactlyInAnyOrder(titled, named, asked);
	}

	@Test
	void listSessionsWithSortAndOrderShouldPageThroughThatOrderExactlyOnce() {
		String cwd = uniqueCwd();
		String banana = importListed(cwd, "2025-01-03T00:00:00.000Z", "banana", "first", 5);
		String apple = importListed(cwd, "2025-01-01T00:00:00.000Z", null, "Apple pie", 1);
		String cherry = importListed(cwd, "2025-01-02T00:00:00.000Z", "Cherry", "third", 3);
		String untitled = importListed(cwd, "2025-01-04T00:00:00.000Z", null, null, 0);

		assertThat(listIds(cwd, "sort=name&order=asc")).containsExactly(untitled, apple, banana, cherry);
		assertThat(listIds(cwd, "sort=name&order=desc")).containsExactly(cherry, banana, apple, untitled);
		assertThat(listIds(cwd, "sort=messages")).containsExactly(banana, cherry, apple, untitled);
		assertThat(listIds(cwd, "sort=created&order=asc")).containsExactly(apple, cherry, banana, untitled);
		assertThat(listIds(cwd, "sort=changed&order=asc")).containsExactly(banana, apple, cherry, untitled);
		assertThat(listIds(cwd, "order=asc")).containsExactly(banana, apple, cherry, untitled);

		for (String order : List.of("sort=name&order=asc", "sort=messages&order=asc", "sort=created&order=desc")) {
			List<String> visited = new ArrayList<>();
			JsonNode page = list("/sessions?cwd={cwd}&limit=1&" + order, cwd);
			while (true) {
				visited.addAll(ids(page.get("items")));
				if (page.get("nextCursor").isNull()) {
					break;
				}
				page = list("/sessions?cwd={cwd}&limit=1&cursor={cursor}&" + order, cwd, page.get("nextCursor").asString());
			}
			assertThat(visited).as(order).containsExactlyElementsOf(listIds(cwd, order));
		}
	}

	@Test
	void listSessionsWhenCursorIsOfAnotherOrderShouldReturn400SayingWhichOrder() {
		String cwd = uniqueCwd();
		importListed(cwd, "2025-01-01T00:00:00.000Z", "one", null, 0);
		importListed(cwd, "2025-01-02T00:00:00.000Z", "two", null, 0);
		String cursor = list("/sessions?cwd={cwd}&limit=1&sort=name", cwd).get("nextCursor").asString();
		this.client.get()
			.uri("/sessions?cwd={cwd}&limit=1&cursor={cursor}", cwd, cursor)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.parameter")
			.isEqualTo("cursor")
			.jsonPath("$.detail")
			.value(detail -> assertThat((String) detail).contains("sort=name&order=desc"));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "sort=size|sort|Unknown sort 'size'", "order=up|order|Unknown order 'up'",
			"q=%21%3F%2A|q|q has no word" })
	void listSessionsWhenSortOrderOrQCannotBeReadShouldReturn400NamingIt(String query, String parameter,
			String detail) {
		this.client.get()
			.uri(java.net.URI.create("/sessions?" + query))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "invalid-parameter")
			.jsonPath("$.parameter")
			.isEqualTo(parameter)
			.jsonPath("$.detail")
			.value(text -> assertThat((String) text).startsWith(detail));
	}

	@Test
	void listSessionsWhenQIsLongerThan1000CharactersShouldReturn400() {
		this.client.get()
			.uri("/sessions?q={q}", "word ".repeat(201))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.parameter")
			.isEqualTo("q");
	}

	/** The ids of a cwd's sessions listed with more parameters. */
	private List<String> listIds(String cwd, String parameters) {
		return ids(list("/sessions?cwd={cwd}&limit=1000&" + parameters, cwd).get("items"));
	}

	/**
	 * Imports a session with a fresh id: a name (a {@code session_info} entry) and a first user message where given,
	 * and that many messages in all; its id.
	 */
	private String importListed(String cwd, String created, @Nullable String name, @Nullable String firstMessage,
			int messages) {
		String id = UUID.randomUUID().toString();
		StringBuilder file = new StringBuilder("{\"type\":\"session\",\"version\":3,\"id\":\"" + id
				+ "\",\"timestamp\":\"" + created + "\",\"cwd\":" + Json.MAPPER.writeValueAsString(cwd) + "}\n");
		String parent = null;
		int entries = 0;
		if (name != null) {
			parent = "c" + String.format("%07d", entries++);
			file.append("{\"type\":\"session_info\",\"id\":\"" + parent + "\",\"parentId\":null,\"timestamp\":\""
					+ created + "\",\"name\":" + Json.MAPPER.writeValueAsString(name) + "}\n");
		}
		for (int i = 0; i < messages; i++) {
			String role = (i == 0 && firstMessage != null) ? "user" : "assistant";
			String text = (i == 0 && firstMessage != null) ? firstMessage : "answer " + i;
			String entryId = "c" + String.format("%07d", entries++);
			file.append("{\"type\":\"message\",\"id\":\"" + entryId + "\",\"parentId\":"
					+ ((parent != null) ? "\"" + parent + "\"" : "null") + ",\"timestamp\":\"" + created
					+ "\",\"message\":{\"role\":\"" + role + "\",\"content\":" + Json.MAPPER.writeValueAsString(text)
					+ "}}\n");
			parent = entryId;
		}
		Instant changed = Instant.parse(importFile(file.toString().getBytes(StandardCharsets.UTF_8)).get("changedAt").asString());
		while (!Instant.now().isAfter(changed)) { // so that sessions imported one after another change in that order
			Thread.onSpinWait();
		}
		return id;
	}

	@Test
	void setNameShouldAppendASessionInfoEntryAsPiDoesAndListTheName() {
		String id = create(uniqueCwd());
		String first = ApiSessions.appendUser(this.client, id, "hello");
		JsonNode entry = ApiSessions.body(this.client.put()
			.uri("/sessions/{id}/name", id)
			.contentType(MediaType.APPLICATION_JSON)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.body(Map.of("name", "\u00a0 Flaky test hunt\n"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueMatches(HttpHeaders.ETAG, "\"[0-9a-f]{8}\""));
		assertThat(entry.get("type").asString()).isEqualTo("session_info");
		assertThat(entry.get("name").asString()).as("trimmed as pi's /name trims").isEqualTo("Flaky test hunt");
		assertThat(entry.get("parentId").asString()).isEqualTo(first);
		JsonNode session = list("/sessions/{id}", id);
		assertThat(session.get("name").asString()).isEqualTo("Flaky test hunt");
		assertThat(session.get("leafId").asString()).isEqualTo(entry.get("id").asString());
		assertThat(session.get("messageCount").asInt()).isEqualTo(1);
		assertThat(ids(list("/sessions?q={q}&cwd={cwd}", "flaky", session.get("cwd").asString()).get("items")))
			.containsExactly(id);

		JsonNode cleared = ApiSessions.body(this.client.put()
			.uri("/sessions/{id}/name", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "   "))
			.exchange()
			.expectStatus()
			.isOk());
		assertThat(cleared.get("name").asString()).as("an explicit clear, as pi writes it").isEmpty();
		assertThat(list("/sessions/{id}", id).get("name").isNull()).isTrue();
	}

	@Test
	void setNameWhenIfMatchIsStaleShouldReturn412AndWriteNothing() {
		String id = create(uniqueCwd());
		String first = ApiSessions.appendUser(this.client, id, "hello");
		ApiSessions.appendUser(this.client, id, "again");
		Map<String, String> before = stored().snapshot();
		this.client.put()
			.uri("/sessions/{id}/name", id)
			.contentType(MediaType.APPLICATION_JSON)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.body(Map.of("name", "late"))
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.PRECONDITION_FAILED);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@ParameterizedTest
	@ValueSource(strings = { "{}", "{\"name\":null}", "{\"name\":3}", "{\"name\":[\"a\"]}", "not json" })
	void setNameWhenNameIsNoTextShouldReturn400AndWriteNothing(String body) {
		String id = create(uniqueCwd());
		Map<String, String> before = stored().snapshot();
		this.client.put()
			.uri("/sessions/{id}/name", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void setNameWhenSessionIsUnknownShouldReturn404() {
		expectSessionNotFound(this.client.put()
			.uri("/sessions/{id}/name", "019a9f3e-0000-7000-8000-00000000dead")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("name", "x"))
			.exchange(), "019a9f3e-0000-7000-8000-00000000dead");
	}

	@ParameterizedTest
	@ValueSource(strings = { "not-a-cursor", "!!!", "YWJjfHNlc3Npb24" /* "abc|session" */ })
	void listSessionsWhenCursorIsInvalidShouldReturn400(String cursor) {
		this.client.get()
			.uri("/sessions?cursor={cursor}", cursor)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "invalid-parameter")
			.jsonPath("$.status")
			.isEqualTo(400)
			.jsonPath("$.parameter")
			.isEqualTo("cursor");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "1001", "-1" })
	void listSessionsWhenLimitIsOutOfRangeShouldReturn400(String limit) {
		this.client.get()
			.uri("/sessions?limit={limit}", limit)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "invalid-parameter")
			.jsonPath("$.parameter")
			.isEqualTo("limit");
	}

	@Test
	void listSessionsWhenLimitIsNotANumberShouldReturn400() {
		this.client.get()
			.uri("/sessions?limit=ten")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "invalid-parameter")
			.jsonPath("$.parameter")
			.isEqualTo("limit");
	}

	@Test
	void getSessionShouldReturnItWithTheLeafAsETag() {
		String id = create(uniqueCwd());
		this.client.get()
			.uri("/sessions/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.jsonPath("$.id")
			.isEqualTo(id)
			.jsonPath("$.leafId")
			.isEmpty();
		ApiSessions.appendUser(this.client, id, "one");
		String second = ApiSessions.appendAssistant(this.client, id, "two");
		JsonNode session = ApiSessions.body(this.client.get()
			.uri("/sessions/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + second + "\""));
		assertThat(session.get("leafId").asString()).isEqualTo(second);
		assertThat(session.get("entryCount").asInt()).isEqualTo(2);
	}

	@Test
	void getSessionWhenUnknownShouldReturn404Problem() {
		expectSessionNotFound(this.client.get().uri("/sessions/{id}", "no-such-session").exchange(), "no-such-session");
	}

	@Test
	void getSessionWhenIdIsNotAnIdShouldReturn400() {
		this.client.get()
			.uri("/sessions/{id}", "..%2F..%2Fetc")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "invalid-id");
	}

	@Test
	void deleteSessionShouldReturn204AndLeaveNothingOfItStored() {
		Map<String, String> before = stored().snapshot();
		String id = create(uniqueCwd());
		String first = ApiSessions.appendUser(this.client, id, "one");
		ApiSessions.appendAssistant(this.client, id, "two");
		moveLeaf(id, first);
		assertThat(stored().snapshot()).isNotEqualTo(before);
		this.client.delete()
			.uri("/sessions/{id}", id)
			.exchange()
			.expectStatus()
			.isNoContent()
			.expectBody()
			.isEmpty();
		assertThat(stored().snapshot()).isEqualTo(before);
		expectSessionNotFound(this.client.get().uri("/sessions/{id}", id).exchange(), id);
		assertThat(ids(list("/sessions?limit=1000").get("items"))).doesNotContain(id);
	}

	@Test
	void deleteSessionWhenIfMatchMatchesShouldReturn204() {
		String id = create(uniqueCwd());
		String first = ApiSessions.appendUser(this.client, id, "one");
		this.client.delete()
			.uri("/sessions/{id}", id)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.exchange()
			.expectStatus()
			.isNoContent();
		this.client.get().uri("/sessions/{id}", id).exchange().expectStatus().isNotFound();
	}

	@Test
	void deleteSessionWhenIfMatchIsStaleShouldReturn412AndKeepTheSession() {
		String cwd = uniqueCwd();
		String id = create(cwd);
		String first = ApiSessions.appendUser(this.client, id, "one");
		String second = ApiSessions.appendAssistant(this.client, id, "two");
		Map<String, String> before = stored().snapshot();
		this.client.delete()
			.uri("/sessions/{id}", id)
			.header(HttpHeaders.IF_MATCH, "\"" + first + "\"")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.PRECONDITION_FAILED)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + second + "\"")
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "leaf-moved")
			.jsonPath("$.sessionId")
			.isEqualTo(id)
			.jsonPath("$.leafId")
			.isEqualTo(second);
		assertThat(stored().snapshot()).isEqualTo(before);
		assertThat(listIds(cwd)).containsExactly(id);
		String third = ApiSessions.appendUser(this.client, id, "still here");
		this.client.get()
			.uri("/sessions/{id}", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.leafId")
			.isEqualTo(third)
			.jsonPath("$.entryCount")
			.isEqualTo(3);
	}

	@Test
	void deleteSessionWhenUnknownShouldReturn404Problem() {
		expectSessionNotFound(this.client.delete().uri("/sessions/{id}", "no-such-session").exchange(),
				"no-such-session");
	}

	@ParameterizedTest
	@ValueSource(strings = { "application/x-ndjson", "text/plain" })
	void importOmpSessionShouldReturn201AndStoreTheFileByteForByte(String contentType) {
		byte[] file = testSession(TestSessions.OMP_V3);
		List<JsonNode> fileLines = lines(file);
		String lastId = fileLines.get(fileLines.size() - 1).get("id").asString();
		String id = testSessionId();
		JsonNode session = ApiSessions.body(this.client.post()
			.uri("/sessions/import")
			.contentType(MediaType.parseMediaType(contentType))
			.body(file)
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.location("/sessions/" + id)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + lastId + "\""));
		assertThat(session.get("id").asString()).isEqualTo(id);
		assertThat(session.get("version").asInt()).isEqualTo(3);
		assertThat(session.get("cwd").asString()).isEqualTo("/home/dana/src/quillmark");
		assertThat(session.get("createdAt").asString()).isEqualTo("2025-10-14T09:12:03.118Z");
		assertThat(session.get("leafId").asString()).isEqualTo(lastId);
		assertThat(session.get("entryCount").asInt()).isEqualTo(132);
		assertThat(session.get("malformedLines").asInt()).isZero();
		assertThat(session.get("header")).isEqualTo(fileLines.get(1));
		assertThat(stored().sessionBytes(id)).isEqualTo(file);
	}

	@Test
	void importPiV1SessionShouldMigrateItToVersion3() {
		byte[] file = testSession(TestSessions.PI_V1);
		String id = testSessionId();
		JsonNode session = importFile(file);
		assertThat(session.get("id").asString()).isEqualTo(id);
		assertThat(session.get("version").asInt()).isEqualTo(3);
		assertThat(session.get("header").get("version").asInt()).isEqualTo(3);
		assertThat(session.get("entryCount").asInt()).isEqualTo(49);
		assertThat(session.get("malformedLines").asInt()).isZero();
		List<JsonNode> stored = lines(stored().sessionBytes(id));
		assertThat(stored).hasSize(1 + 49);
		assertThat(stored.get(0).get("version").asInt()).isEqualTo(3);
		assertThat(session.get("leafId").asString()).isEqualTo(stored.get(stored.size() - 1).get("id").asString());
		this.client.get()
			.uri("/sessions/{id}", id)
			.exchange()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + session.get("leafId").asString() + "\"");
	}

	@Test
	void importPiV1SessionAgainShouldGiveItsEntriesTheSameIds() {
		String id = testSessionId();
		importFile(testSession(TestSessions.PI_V1));
		List<String> firstIds = entryIds(lines(export(id)));
		this.client.delete().uri("/sessions/{id}", id).exchange().expectStatus().isNoContent();
		importFile(testSession(TestSessions.PI_V1));
		List<String> secondIds = entryIds(lines(export(id)));
		assertThat(firstIds).hasSize(49).doesNotHaveDuplicates().allMatch(entryId -> entryId.matches("[0-9a-f]{8}"));
		assertThat(secondIds).isEqualTo(firstIds);
	}

	@Test
	void importWhenIdExistsShouldReturn409AndChangeNothing() {
		String id = testSessionId();
		importFile(testSession(TestSessions.OMP_V3));
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(testSession(TestSessions.PI_V1))
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.CONFLICT)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "session-exists")
			.jsonPath("$.status")
			.isEqualTo(409)
			.jsonPath("$.sessionId")
			.isEqualTo(id);
		assertThat(stored().snapshot()).isEqualTo(before);
		assertThat(stored().sessionBytes(id)).isEqualTo(testSession(TestSessions.OMP_V3));
	}

	@Test
	void importWhenIdIsThatOfASessionCreatedHereShouldReturn409() {
		String id = create(uniqueCwd());
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body("{\"type\":\"session\",\"version\":3,\"id\":\"" + id + "\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/x\"}\n")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.CONFLICT)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "session-exists");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@ParameterizedTest
	@ValueSource(strings = { "hello world\n", "{\"type\":\"message\",\"id\":\"a1b2c3d4\",\"parentId\":null}\n",
			"{\"type\":\"session\",\"version\":3,\"timestamp\":\"2025-11-20T23:33:01.550Z\"}\n", "[1,2,3]\n" })
	void importWhenBodyIsNotASessionFileShouldReturn400AndWriteNothing(String body) {
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "invalid-session-file");
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void importWhenBodyIsEmptyShouldReturn400AndWriteNothing() {
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(new byte[0])
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void importWhenLinesAreMalformedShouldReturn400ListingThemAndWriteNothing() {
		String id = "malformed-" + UUID.randomUUID();
		Map<String, String> before = stored().snapshot();
		JsonNode problem = ApiSessions.body(this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(fileWithMalformedLines(id))
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON));
		assertThat(problem.get("type").asString()).isEqualTo(PROBLEMS + "invalid-session-file");
		assertThat(problem.get("detail").asString()).contains("line 3").endsWith("send it again with ?skipMalformedLines=true");
		List<Integer> lineNumbers = new ArrayList<>();
		problem.get("malformedLines").forEach(line -> lineNumbers.add(line.get("lineNumber").asInt()));
		assertThat(lineNumbers).containsExactly(3, 5);
		assertThat(stored().snapshot()).isEqualTo(before);
		this.client.get().uri("/sessions/{id}", id).exchange().expectStatus().isNotFound();
	}

	@Test
	void importWithSkipMalformedLinesShouldStoreTheValidEntries() {
		String id = "skipped-" + UUID.randomUUID();
		JsonNode session = ApiSessions.body(this.client.post()
			.uri("/sessions/import?skipMalformedLines=true")
			.contentType(NDJSON)
			.body(fileWithMalformedLines(id))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.location("/sessions/" + id)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"b2c3d4e5\""));
		assertThat(session.get("id").asString()).isEqualTo(id);
		assertThat(session.get("entryCount").asInt()).isEqualTo(2);
		assertThat(session.get("leafId").asString()).isEqualTo("b2c3d4e5");
		assertThat(entryIds(lines(export(id)))).containsExactly("a1b2c3d4", "b2c3d4e5");
	}

	@Test
	void importWhenContentTypeIsJsonShouldReturn415AndWriteNothing() {
		Map<String, String> before = stored().snapshot();
		this.client.post()
			.uri("/sessions/import")
			.contentType(MediaType.APPLICATION_JSON)
			.body(testSession(TestSessions.OMP_V3))
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "unsupported-media-type")
			.jsonPath("$.status")
			.isEqualTo(415)
			.jsonPath("$.detail")
			.value((detail) -> assertThat(detail.toString()).startsWith("Content-Type application/json is not taken here")
				.contains("application/x-ndjson", "text/plain"))
			.jsonPath("$.accepted[?(@ == 'application/x-ndjson')]")
			.exists()
			.jsonPath("$.accepted[?(@ == 'text/plain')]")
			.exists();
		assertThat(stored().snapshot()).isEqualTo(before);
	}

	@Test
	void exportOfImportedOmpSessionShouldReturnTheFileBytes() {
		byte[] file = testSession(TestSessions.OMP_V3);
		JsonNode session = importFile(file);
		String id = session.get("id").asString();
		byte[] exported = this.client.get()
			.uri("/sessions/{id}/export", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(NDJSON)
			.expectHeader()
			.valueEquals(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + id + ".jsonl\"")
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + session.get("leafId").asString() + "\"")
			.expectBody()
			.returnResult()
			.getResponseBody();
		assertThat(exported).isEqualTo(file);
	}

	@Test
	void exportOfPiV1SessionShouldBeAVersion3FileThatImportsAgainUnderAnotherId() {
		String id = testSessionId();
		JsonNode session = importFile(testSession(TestSessions.PI_V1));
		List<JsonNode> exported = lines(export(id));
		JsonNode header = exported.get(0);
		assertThat(header.get("type").asString()).isEqualTo("session");
		assertThat(header.get("version").asInt()).isEqualTo(3);
		assertThat(header.get("id").asString()).isEqualTo(id);
		List<JsonNode> entries = exported.subList(1, exported.size());
		assertThat(entries).hasSize(49);
		String parent = null;
		for (JsonNode entry : entries) {
			assertThat(entry.get("id").asString()).matches("[0-9a-f]{8}");
			assertThat(entry.get("parentId").isNull() ? null : entry.get("parentId").asString()).isEqualTo(parent);
			parent = entry.get("id").asString();
		}
		assertThat(session.get("leafId").asString()).isEqualTo(parent);

		String copyId = "pi-copy-" + UUID.randomUUID();
		((ObjectNode) header).put("id", copyId);
		StringBuilder copy = new StringBuilder(Json.toString(header)).append('\n');
		entries.forEach(entry -> copy.append(Json.toString(entry)).append('\n'));
		JsonNode imported = ApiSessions.body(this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(copy.toString().getBytes(StandardCharsets.UTF_8))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.location("/sessions/" + copyId)
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + parent + "\""));
		assertThat(imported.get("entryCount").asInt()).isEqualTo(49);
		assertThat(imported.get("leafId").asString()).isEqualTo(parent);
		List<JsonNode> reexported = lines(export(copyId));
		assertThat(reexported.get(0).get("id").asString()).isEqualTo(copyId);
		assertThat(reexported.subList(1, reexported.size())).containsExactlyElementsOf(entries);
	}

	@Test
	void exportShouldContainEntriesAppendedSinceCreation() {
		String id = create(uniqueCwd());
		byte[] empty = this.client.get()
			.uri("/sessions/{id}/export", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"root\"")
			.expectBody()
			.returnResult()
			.getResponseBody();
		assertThat(lines(empty)).hasSize(1);
		JsonNode first = ApiSessions.append(this.client, id,
				"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"one\"},\"extra\":1.10}");
		JsonNode second = ApiSessions.append(this.client, id, "{\"type\":\"thinking_level_change\",\"thinkingLevel\":\"high\"}");
		byte[] exported = this.client.get()
			.uri("/sessions/{id}/export", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ETAG, "\"" + second.get("id").asString() + "\"")
			.expectBody()
			.returnResult()
			.getResponseBody();
		assertThat(lines(exported)).containsExactly(lines(empty).get(0), first, second);
		assertThat(exported).isEqualTo(stored().sessionBytes(id));
	}

	@Test
	void exportWhenUnknownShouldReturn404Problem() {
		expectSessionNotFound(this.client.get().uri("/sessions/{id}/export", "no-such-session").exchange(),
				"no-such-session");
	}

	private void assertThatIsABareSession(JsonNode session) {
		String id = session.get("id").asString();
		assertThat(id).matches(UUID_V7);
		assertThat(session.get("version").asInt()).isEqualTo(3);
		assertThat(session.get("cwd").asString()).isEmpty();
		assertThat(session.get("title").isNull()).isTrue();
		assertThat(session.get("parentSession").isNull()).isTrue();
		assertThatIsAnEmptySession(session);
		assertThat(session.get("header")).isEqualTo(json("{\"type\":\"session\",\"version\":3,\"id\":\"" + id
				+ "\",\"timestamp\":\"" + session.get("createdAt").asString() + "\",\"cwd\":\"\"}"));
		assertThat(lines(stored().sessionBytes(id))).containsExactly(session.get("header"));
	}

	private static void assertThatIsAnEmptySession(JsonNode session) {
		assertThat(session.get("createdAt").asString()).matches(TIMESTAMP);
		assertThat(session.get("updatedAt").asString()).isEqualTo(session.get("createdAt").asString());
		assertThat(session.get("leafId").isNull()).isTrue();
		assertThat(session.get("entryCount").asInt()).isZero();
		assertThat(session.get("malformedLines").asInt()).isZero();
	}

	void expectSessionNotFound(RestTestClient.ResponseSpec response, String id) {
		response.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.type")
			.isEqualTo(PROBLEMS + "session-not-found")
			.jsonPath("$.status")
			.isEqualTo(404)
			.jsonPath("$.sessionId")
			.isEqualTo(id);
	}

	/**
	 * A new session in {@code cwd}; returns once the clock has moved past its creation, so that sessions created
	 * one after another have distinct times and the listing's order is theirs.
	 */
	String create(String cwd) {
		JsonNode session = ApiSessions.body(this.client.post()
			.uri("/sessions")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("cwd", cwd))
			.exchange()
			.expectStatus()
			.isCreated());
		Instant created = Instant.parse(session.get("createdAt").asString());
		while (!Instant.now().isAfter(created)) {
			Thread.onSpinWait();
		}
		return session.get("id").asString();
	}

	private JsonNode importFile(byte[] file) {
		return ApiSessions.body(this.client.post()
			.uri("/sessions/import")
			.contentType(NDJSON)
			.body(file)
			.exchange()
			.expectStatus()
			.isCreated());
	}

	private byte[] export(String id) {
		return this.client.get()
			.uri("/sessions/{id}/export", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.returnResult()
			.getResponseBody();
	}

	void moveLeaf(String id, String entryId) {
		this.client.put()
			.uri("/sessions/{id}/leaf", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("entryId", entryId))
			.exchange()
			.expectStatus()
			.isOk();
	}

	JsonNode list(String uri, Object... variables) {
		return ApiSessions.body(this.client.get()
			.uri(uri, variables)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.contentType(MediaType.APPLICATION_JSON));
	}

	private List<String> listIds(String cwd) {
		return ids(list("/sessions?cwd={cwd}", cwd).get("items"));
	}

	static List<String> ids(JsonNode sessions) {
		List<String> ids = new ArrayList<>();
		sessions.forEach(session -> ids.add(session.get("id").asString()));
		return ids;
	}

	private static List<String> entryIds(List<JsonNode> fileLines) {
		List<String> ids = new ArrayList<>();
		fileLines.stream()
			.filter(line -> !"session".equals(line.get("type").asString()))
			.forEach(line -> ids.add(line.get("id").asString()));
		return ids;
	}

	static String uniqueCwd() {
		return "/work/" + UUID.randomUUID();
	}

	/** Header, entry, a line that is not JSON (3), entry, a torn last line (5). */
	private static String fileWithMalformedLines(String id) {
		return "{\"type\":\"session\",\"version\":3,\"id\":\"" + id + "\",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/x\"}\n"
				+ "{\"type\":\"message\",\"id\":\"a1b2c3d4\",\"parentId\":null,\"timestamp\":\"2025-11-20T23:33:02.000Z\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n"
				+ "this is not json\n"
				+ "{\"type\":\"message\",\"id\":\"b2c3d4e5\",\"parentId\":\"a1b2c3d4\",\"timestamp\":\"2025-11-20T23:33:03.000Z\",\"message\":{\"role\":\"assistant\",\"content\":[]}}\n"
				+ "{\"type\":\"message\",\"id\":\"c3d4";
	}

	static String testSessionId() {
		return TestSessions.SESSION_ID;
	}

	private static byte[] testSession(String name) {
		return TestSessions.bytes(name);
	}

	/** Every non-blank line of a JSONL file, parsed. */
	private static List<JsonNode> lines(byte[] file) {
		List<JsonNode> lines = new ArrayList<>();
		for (String line : new String(file, StandardCharsets.UTF_8).split("\n")) {
			if (!line.isBlank()) {
				lines.add(json(line));
			}
		}
		return lines;
	}

	private static JsonNode json(String text) {
		return Json.MAPPER.readTree(text);
	}

}

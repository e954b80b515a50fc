package dev.arbor.web;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fork lineage over HTTP (docs/API.md#fork-lineage): ancestors and descendants by the headers' {@code parentSession},
 * missing parents and cycles. A contract: {@link FileLineageApiTests} and {@link PostgresLineageApiTests} run it on
 * each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class LineageApiContract {

	@Autowired
	RestTestClient client;

	/**
	 * Puts a session file into the store behind the API's fork endpoints: into the folder for the file store, as an
	 * import for the PostgreSQL store.
	 */
	abstract void storeByHand(String id, String timestamp, @org.jspecify.annotations.Nullable String parentSession);

	@Test
	void aChainOfThreeForksShouldListItsAncestorsNearestFirstAndItsDescendantsInOrder() {
		String root = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, root, "start");
		String first = fork(root);
		String second = fork(first);
		String third = fork(second);

		JsonNode ofThird = lineage(third);
		assertThat(ids(ofThird.get("ancestors"))).containsExactly(second, first, root);
		assertThat(ids(ofThird.get("descendants"))).isEmpty();
		assertThat(ofThird.get("missingParent").isNull()).isTrue();
		assertThat(ofThird.get("cycle").isNull()).isTrue();

		JsonNode ofRoot = lineage(root);
		assertThat(ids(ofRoot.get("ancestors"))).isEmpty();
		assertThat(ids(ofRoot.get("descendants"))).containsExactly(first, second, third);
		assertThat(ofRoot.get("descendants").get(2).get("parentSession").asString()).isEqualTo(second);
		assertThat(ofRoot.get("parents").get(first).asString()).isEqualTo(root);
		assertThat(ofRoot.get("parents").get(third).asString()).isEqualTo(second);

		JsonNode ofFirst = lineage(first);
		assertThat(ids(ofFirst.get("ancestors"))).containsExactly(root);
		assertThat(ids(ofFirst.get("descendants"))).containsExactly(second, third);
	}

	@Test
	void lineageSessionsShouldBeTheListingsOwn() {
		String root = ApiSessions.create(this.client);
		String child = fork(root);
		JsonNode listed = ApiSessions.body(this.client.get().uri("/sessions/{id}", root).exchange().expectStatus().isOk());
		JsonNode ancestor = lineage(child).get("ancestors").get(0);
		assertThat(ancestor).isEqualTo(listed);
	}

	@Test
	void aSessionWithTwoForksShouldListBothOldestFirstAndTheirForksAfterThem() {
		String root = ApiSessions.create(this.client);
		ApiSessions.appendUser(this.client, root, "start");
		String left = fork(root);
		String right = branchedSession(root);
		String leftChild = fork(left);
		JsonNode ofRoot = lineage(root);
		assertThat(ids(ofRoot.get("descendants"))).containsExactly(left, right, leftChild);
		assertThat(ofRoot.get("parents").get(leftChild).asString()).isEqualTo(left);
		assertThat(ids(lineage(right).get("ancestors"))).containsExactly(root);
		assertThat(ids(lineage(right).get("descendants"))).isEmpty();
	}

	@Test
	void aParentThatIsNotStoredShouldEndTheAncestorsAsMissing() {
		String gone = ApiSessions.create(this.client);
		String child = fork(gone);
		String grandchild = fork(child);
		this.client.delete().uri("/sessions/{id}", gone).exchange().expectStatus().isNoContent();

		JsonNode ofGrandchild = lineage(grandchild);
		assertThat(ids(ofGrandchild.get("ancestors"))).containsExactly(child);
		assertThat(ofGrandchild.get("missingParent").asString()).isEqualTo(gone);
		assertThat(ofGrandchild.get("cycle").isNull()).isTrue();

		String orphan = newId();
		storeByHand(orphan, "2025-11-20T23:33:01.550Z", "/nowhere/2025-11-20T23-33-01-550Z_" + newId() + ".jsonl");
		JsonNode ofOrphan = lineage(orphan);
		assertThat(ids(ofOrphan.get("ancestors"))).isEmpty();
		assertThat(ofOrphan.get("missingParent").asString()).startsWith("/nowhere/");
	}

	@Test
	void aCycleWrittenByHandShouldBeReportedAndWalkedOnce() {
		String a = newId();
		String b = newId();
		String c = newId();
		storeByHand(a, "2025-11-20T23:33:01.550Z", c);
		storeByHand(b, "2025-11-20T23:33:02.550Z", a);
		storeByHand(c, "2025-11-20T23:33:03.550Z", b);

		JsonNode ofA = lineage(a);
		assertThat(ids(ofA.get("ancestors"))).containsExactly(c, b);
		assertThat(ofA.get("cycle").asString()).isEqualTo(a);
		assertThat(ofA.get("missingParent").isNull()).isTrue();
		assertThat(ids(ofA.get("descendants"))).containsExactly(b, c);

		String self = newId();
		storeByHand(self, "2025-11-20T23:33:04.550Z", self);
		JsonNode ofSelf = lineage(self);
		assertThat(ids(ofSelf.get("ancestors"))).isEmpty();
		assertThat(ofSelf.get("cycle").asString()).isEqualTo(self);
		assertThat(ids(ofSelf.get("descendants"))).isEmpty();
	}

	@Test
	void anUnknownSessionShouldBe404() {
		String id = newId();
		JsonNode problem = ApiSessions.problem(this.client.get().uri("/sessions/{id}/lineage", id).exchange(),
				HttpStatus.NOT_FOUND, "session-not-found");
		assertThat(problem.toString()).contains(id);
	}

	@Test
	void aLineageShouldCarryNoETag() {
		String id = ApiSessions.create(this.client);
		this.client.get()
			.uri("/sessions/{id}/lineage", id)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.doesNotExist(HttpHeaders.ETAG);
	}

	JsonNode lineage(String id) {
		return ApiSessions.body(this.client.get().uri("/sessions/{id}/lineage", id).exchange().expectStatus().isOk());
	}

	String fork(String id) {
		return ApiSessions.body(this.client.post().uri("/sessions/{id}/fork", id).exchange().expectStatus().isCreated())
			.get("id")
			.asString();
	}

	private String branchedSession(String id) {
		String leaf = ApiSessions.leaf(this.client, id);
		return ApiSessions.body(this.client.post()
			.uri("/sessions/{id}/branched-sessions", id)
			.contentType(org.springframework.http.MediaType.APPLICATION_JSON)
			.body("{\"leafId\":\"" + leaf + "\"}")
			.exchange()
			.expectStatus()
			.isCreated()).get("id").asString();
	}

	static String newId() {
		return UUID.randomUUID().toString();
	}

	static String header(String id, String timestamp, @org.jspecify.annotations.Nullable String parentSession) {
		return "{\"type\":\"session\",\"version\":3,\"id\":\"" + id + "\",\"timestamp\":\"" + timestamp
				+ "\",\"cwd\":\"/work/lineage\"" + ((parentSession != null) ? ",\"parentSession\":\"" + parentSession + "\"" : "")
				+ "}\n";
	}

	static List<String> ids(JsonNode sessions) {
		return sessions.valueStream().map(session -> session.get("id").asString()).toList();
	}

}

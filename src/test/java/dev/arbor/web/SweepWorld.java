package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The sessions the sweep aims at, written over HTTP by the sweep itself: one with a branch and a label, one with a
 * single exchange, one without entries. A successful mutation may move a leaf or delete a session, so the world is
 * refreshed after each: leaves are read anew and a deleted session is written again under a new id.
 */
final class SweepWorld {

	private final int port;

	/** Across worlds: the tests of a class share one storage directory. */
	private static final AtomicInteger imports = new AtomicInteger();

	private final Map<String, String> importedByEntryId = new HashMap<>();

	private int changes;

	private Branched branched;

	private String small;

	private String empty;

	SweepWorld(int port) {
		this.port = port;
		this.branched = seedBranched();
		this.small = seedSmall();
		this.empty = create();
	}

	/** The session with a branch and a label. */
	Branched branched() {
		return this.branched;
	}

	String smallSession() {
		return this.small;
	}

	String emptySession() {
		return this.empty;
	}

	/** A session id no import has used yet. */
	String nextImportId() {
		return "swept-import-" + imports.incrementAndGet();
	}

	/** How many times the world wrote to the store itself: files changed when this did. */
	int changes() {
		return this.changes;
	}

	/**
	 * A session imported from a file whose one entry has this id (ids read from files are kept, whatever their
	 * form), imported on first use; its id, whether or not the import succeeded.
	 */
	String imported(String entryId) {
		return this.importedByEntryId.computeIfAbsent(entryId, id -> {
			String sessionId = nextImportId();
			this.changes++;
			SweepWire.send(this.port, SweepRequest.of("POST", "/sessions/import")
				.header("Content-Type", "application/x-ndjson")
				.body(bytes(SweepBodies.sessionFile(sessionId, id, "hi"))));
			return sessionId;
		});
	}

	/**
	 * Reads the branched session's leaf anew, and writes a session again where one was deleted: the branched one
	 * always (and where a navigation to its first message left it without a leaf, which mutations such as
	 * {@code If-Match "root"} take it to have), the others only after a delete, the one request that removes them.
	 */
	void refresh(boolean afterDelete) {
		String leaf = leafOf(this.branched.sessionId());
		if (leaf != null && !leaf.equals("root")) {
			this.branched = this.branched.withLeaf(leaf);
		}
		else {
			this.branched = seedBranched();
			this.changes++;
		}
		if (!afterDelete) {
			return;
		}
		if (leafOf(this.small) == null) {
			this.small = seedSmall();
			this.changes++;
		}
		if (!exists(this.empty)) {
			this.empty = create();
			this.changes++;
		}
	}

	private Branched seedBranched() {
		String sessionId = create();
		String firstUser = append(sessionId, user("Make the config loader read env vars"));
		String firstAnswer = append(sessionId, assistant("Done; the loader reads ARBOR_* first."));
		append(sessionId, user("Now add tests"));
		append(sessionId, assistant("Added three tests."));
		expect2xx(SweepRequest.of("PUT", "/sessions/" + sessionId + "/leaf")
			.header("Content-Type", "application/json")
			.body(bytes("{\"entryId\":\"" + firstAnswer + "\"}")));
		append(sessionId, user("Rather use a properties file"));
		String branchAnswer = append(sessionId, assistant("Switched to application.properties."));
		expect2xx(SweepRequest.of("PUT", "/sessions/" + sessionId + "/labels/" + firstUser)
			.header("Content-Type", "application/json")
			.body(bytes("{\"label\":\"checkpoint\"}")));
		return new Branched(sessionId, firstUser, firstAnswer, branchAnswer, leafOf(sessionId));
	}

	private String seedSmall() {
		String sessionId = create();
		append(sessionId, user("hi"));
		append(sessionId, assistant("hello"));
		return sessionId;
	}

	private String create() {
		return json(expect2xx(SweepRequest.of("POST", "/sessions")
			.header("Content-Type", "application/json")
			.body(bytes("{\"cwd\":\"/work/sweep\",\"title\":\"swept\"}")))).get("id").asString();
	}

	private String append(String sessionId, String entry) {
		return json(expect2xx(SweepRequest.of("POST", "/sessions/" + sessionId + "/entries")
			.header("Content-Type", "application/json")
			.body(bytes(entry)))).get("id").asString();
	}

	/** The leaf, {@code "root"} for none; {@code null} when the session is gone. */
	private @Nullable String leafOf(String sessionId) {
		SweepWire.Answer answer = SweepWire.send(this.port, SweepRequest.of("GET", "/sessions/" + sessionId + "/leaf"));
		if (!answer.successful()) {
			return null;
		}
		JsonNode leaf = json(answer).get("leafId");
		return leaf.isNull() ? "root" : leaf.asString();
	}

	private boolean exists(String sessionId) {
		return SweepWire.send(this.port, SweepRequest.of("GET", "/sessions/" + sessionId)).successful();
	}

	private SweepWire.Answer expect2xx(SweepRequest request) {
		SweepWire.Answer answer = SweepWire.send(this.port, request);
		if (!answer.successful()) {
			throw new IllegalStateException("Seeding failed: " + request + "\n  " + answer);
		}
		return answer;
	}

	static String user(String text) {
		return "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":" + Json.quote(text) + "}}";
	}

	static String assistant(String text) {
		return "{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":"
				+ Json.quote(text) + "}],\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\"}}";
	}

	private static JsonNode json(SweepWire.Answer answer) {
		return Json.MAPPER.readTree(answer.body());
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The session with a branch: {@code firstUser → firstAnswer → (user → answer)} and
	 * {@code firstAnswer → user → branchAnswer}, then a label on {@code firstUser}.
	 *
	 * @param sessionId its id
	 * @param firstUser the root, a user message (branchable, navigable, labelled)
	 * @param firstAnswer the assistant's answer to it, where the branch forks
	 * @param branchAnswer the last message of the current branch
	 * @param leaf the leaf now: the label entry after seeding
	 */
	record Branched(String sessionId, String firstUser, String firstAnswer, String branchAnswer, String leaf) {

		Branched withLeaf(String leaf) {
			return new Branched(this.sessionId, this.firstUser, this.firstAnswer, this.branchAnswer, leaf);
		}

	}

}

package dev.arbor.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.arbor.UpstreamPi;
import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.web.servlet.client.RestTestClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Arbor lists sessions as pi does (docs/SESSION-FORMAT.md#how-a-session-is-listed): sessions in pi's own shapes,
 * listed by upstream pi's {@code SessionManager.list} ({@link UpstreamPi}) and by {@code GET /sessions}, must agree on
 * every session's {@code name}, {@code firstMessage} and {@code messageCount}. pi lists a folder of copies, never
 * what Arbor serves. A contract: {@link FilePiListingTests} and {@link PostgresPiListingTests} run it on each store.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
abstract class PiListingContract {

	@Autowired
	RestTestClient client;

	@TempDir
	Path scratch;

	private int sessions;

	@Test
	void everySessionShouldBeListedWithPisNameFirstMessageAndMessageCount() throws IOException {
		Path piHome = Files.createDirectories(this.scratch.resolve("home"));
		Path forPi = Files.createDirectories(this.scratch.resolve("sessions"));
		Map<String, String> files = sessionsInPisShapes();
		// the title slot's session, as pi's rules read it: the entries after the slot (pi itself lists no such file)
		Map<String, String> asPiReads = new LinkedHashMap<>(files);
		asPiReads.computeIfPresent("title-slot", (name, text) -> text.substring(text.indexOf('\n') + 1));
		for (Map.Entry<String, String> file : files.entrySet()) {
			Files.writeString(forPi.resolve(file.getKey() + ".jsonl"), asPiReads.get(file.getKey()), StandardCharsets.UTF_8);
		}
		files.forEach(this::store);

		JsonNode listedByPi = Json.MAPPER.readTree(UpstreamPi.run("list-sessions.mjs", piHome, forPi.toString()));
		assertThat(listedByPi).as("sessions pi lists").hasSize(files.size());
		Map<String, JsonNode> arbor = listedByArbor(files.size());
		assertListedAsPiDoes(listedByPi, arbor);
		// the cases are what they say: pi gives each the answer it is here for
		Map<String, JsonNode> byFile = new LinkedHashMap<>();
		List<String> names = new ArrayList<>(files.keySet());
		for (int i = 0; i < names.size(); i++) {
			byFile.put(names.get(i), arbor.get(sessionId(i)));
		}
		assertThat(byFile.get("renamed-twice").get("name").asString()).isEqualTo("second name");
		assertThat(byFile.get("cleared").get("name").isNull()).isTrue();
		assertThat(byFile.get("no-user-message").get("firstMessage").asString()).isEqualTo("(no messages)");
		assertThat(byFile.get("image-first").get("firstMessage").asString()).isEqualTo("the second one has words");
		assertThat(byFile.get("title-slot").get("title").asString()).isEqualTo("Slot title");
		assertThat(byFile.get("v1").get("messageCount").asInt()).isEqualTo(3);
		this.listedByPi = listedByPi;
	}

	/** What pi listed in the last comparison, for a store's own checks after it. */
	JsonNode listedByPi;

	/** Puts a session file into the store, by its name in the test, as an agent or an import would. */
	abstract void store(String name, String text);

	/** Asserts that {@code GET /sessions} at a port shows what pi listed, for each session. */
	static void assertListedAsPiDoes(JsonNode listedByPi, Map<String, JsonNode> arbor) {
		for (JsonNode pi : listedByPi) {
			String id = pi.get("id").asString();
			JsonNode session = arbor.get(id);
			assertThat(session).as("session %s in GET /sessions", id).isNotNull();
			assertThat(session.get("name").isNull() ? null : session.get("name").asString()).as("name of %s", id)
				.isEqualTo(pi.get("name").isNull() ? null : pi.get("name").asString());
			assertThat(session.get("firstMessage").asString()).as("firstMessage of %s", id)
				.isEqualTo(pi.get("firstMessage").asString());
			assertThat(session.get("messageCount").asInt()).as("messageCount of %s", id)
				.isEqualTo(pi.get("messageCount").asInt());
		}
	}

	/** Every shape the listing rules tell apart, each its own session, by file name. */
	private Map<String, String> sessionsInPisShapes() {
		Map<String, String> files = new LinkedHashMap<>();
		files.put("renamed-twice", session(user("\"fix the build\""), info("\"first name\""), assistant("done"),
				info("\"  second name\\u3000\"")));
		files.put("cleared", session(info("\"named\""), user("\"hello\""), info("\"\"")));
		files.put("cleared-without-name", session(info("\"named\""), "{\"type\":\"session_info\"," + ids() + "}"));
		files.put("blank-name", session(info("\" \\u00a0\\t \""), user("\"hi\"")));
		files.put("no-user-message", session(assistant("I start"), toolResult("output"), custom()));
		files.put("no-messages", session(info("\"only a name\"")));
		files.put("image-first", session(user("[{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\",\"mimeType\":\"image/png\"}]"),
				user("[{\"type\":\"text\",\"text\":\"the second one\"},{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"},{\"type\":\"text\",\"text\":\"has words\"}]")));
		files.put("assistant-first", session(assistant("hello, how can I help"), user("\"  keep my spaces \""),
				bash()));
		files.put("empty-text-first", session(user("\"\""), user("[{\"type\":\"text\",\"text\":\"\"}]"),
				user("\"then this\"")));
		files.put("branches", branches());
		files.put("v1", v1());
		files.put("title-slot", titleSlot());
		return files;
	}

	/**
	 * A version 3 session of these entries, made (as arguments are) before it: each is chained to the one made
	 * before it, and the next session's first entry to none.
	 */
	private String session(String... entries) {
		StringBuilder text = new StringBuilder(header(sessionId(this.sessions++), ",\"version\":3")).append('\n');
		for (String entry : entries) {
			text.append(entry).append('\n');
		}
		this.previous = null;
		return text.toString();
	}

	private int entryCount;

	private String previous;

	/** The next entry's {@code id}, {@code parentId} (the entry before it) and {@code timestamp}. */
	private String ids() {
		String id = String.format("%08x", 0xa0000000L + this.entryCount);
		String parent = (this.previous != null) ? "\"" + this.previous + "\"" : "null";
		this.previous = id;
		return "\"id\":\"" + id + "\",\"parentId\":" + parent + ",\"timestamp\":\"2025-11-20T23:33:"
				+ String.format("%02d", this.entryCount++ % 60) + ".000Z\"";
	}

	private String message(String body) {
		return "{\"type\":\"message\"," + ids() + ",\"message\":" + body + "}";
	}

	private String user(String content) {
		return message("{\"role\":\"user\",\"content\":" + content + ",\"timestamp\":1763681581000}");
	}

	private String assistant(String text) {
		return message("{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"hm\"},{\"type\":\"text\",\"text\":\""
				+ text + "\"},{\"type\":\"toolCall\",\"id\":\"call_1\",\"name\":\"bash\",\"arguments\":{\"command\":\"ls\"}}],"
				+ "\"api\":\"anthropic-messages\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\",\"usage\":{\"input\":1,\"output\":1,\"cacheRead\":0,\"cacheWrite\":0,\"totalTokens\":2,\"cost\":{\"input\":0,\"output\":0,\"cacheRead\":0,\"cacheWrite\":0,\"total\":0}},\"stopReason\":\"toolUse\",\"timestamp\":1763681582000}");
	}

	private String toolResult(String text) {
		return message("{\"role\":\"toolResult\",\"toolCallId\":\"call_1\",\"toolName\":\"bash\",\"content\":[{\"type\":\"text\",\"text\":\""
				+ text + "\"}],\"isError\":false,\"timestamp\":1763681583000}");
	}

	/** A bash execution pi's {@code !} command records: a message without {@code content}, counted all the same. */
	private String bash() {
		return message("{\"role\":\"bashExecution\",\"command\":\"ls\",\"output\":\"a\",\"exitCode\":0,\"cancelled\":false,\"truncated\":false,\"timestamp\":1763681584000}");
	}

	/** An extension's message: an entry of another type, which pi does not count. */
	private String custom() {
		return "{\"type\":\"custom_message\"," + ids()
				+ ",\"customType\":\"note\",\"content\":\"not counted\",\"display\":true}";
	}

	private String info(String name) {
		return "{\"type\":\"session_info\"," + ids() + ",\"name\":" + name + "}";
	}

	/** Two branches from one message: pi reads every entry in file order, whatever branch it is on. */
	private String branches() {
		String question = user("\"the root question\"");
		String root = this.previous;
		String firstBranch = assistant("first answer");
		String onIt = user("\"on the first branch\"");
		this.previous = root; // back to the root question: a second branch beside the first answer
		String secondBranch = info("\"branched\"");
		return session(question, firstBranch, onIt, secondBranch, assistant("second answer"));
	}

	/** A version 1 file as early pi wrote it: no version, entries without ids, pi lists it as it is. */
	private String v1() {
		String id = sessionId(this.sessions++);
		return header(id, "") + "\n"
				+ "{\"type\":\"message\",\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"an old session\",\"timestamp\":1735689601000}}\n"
				+ "{\"type\":\"message\",\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"old answer\"}],\"timestamp\":1735689602000}}\n"
				+ "{\"type\":\"thinking_level_change\",\"timestamp\":\"2025-01-01T00:00:03.000Z\",\"thinkingLevel\":\"high\"}\n"
				+ "{\"type\":\"message\",\"timestamp\":\"2025-01-01T00:00:04.000Z\",\"message\":{\"role\":\"user\",\"content\":\"more\",\"timestamp\":1735689604000}}\n";
	}

	/** A recent oh-my-pi file: a 256-byte title slot before the header. */
	private String titleSlot() {
		String slot = "{\"type\":\"title\",\"v\":1,\"title\":\"Slot title\",\"source\":\"auto\",\"updatedAt\":\"2025-11-20T23:40:00.000Z\",\"pad\":\"";
		slot = slot + " ".repeat(255 - slot.length() - 2) + "\"}";
		assertThat(slot.getBytes(StandardCharsets.UTF_8)).hasSize(255);
		return slot + "\n" + session(user("\"omp question\""), info("\"omp name\""), assistant("omp answer"));
	}

	private static String header(String id, String version) {
		return "{\"type\":\"session\"" + version + ",\"id\":\"" + id
				+ "\",\"timestamp\":\"2025-11-20T23:33:00.000Z\",\"cwd\":\"/work/listing\"}";
	}

	private static String sessionId(int number) {
		return String.format("019aa5c0-0000-7000-8000-%012d", number);
	}

	/** Every session in {@code GET /sessions}, by id, once the store has found all of them in the folder. */
	private Map<String, JsonNode> listedByArbor(int expected) {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (true) {
			Map<String, JsonNode> byId = new LinkedHashMap<>();
			String cursor = null;
			do {
				String uri = "/sessions?limit=100" + ((cursor != null) ? "&cursor=" + cursor : "");
				JsonNode page = Json.MAPPER.readTree(this.client.get()
					.uri(uri)
					.exchange()
					.expectStatus()
					.isOk()
					.expectBody(byte[].class)
					.returnResult()
					.getResponseBody());
				page.get("items").forEach((session) -> byId.put(session.get("id").asString(), session));
				cursor = page.path("nextCursor").isString() ? page.get("nextCursor").asString() : null;
			}
			while (cursor != null);
			if (byId.size() >= expected) {
				return byId;
			}
			assertThat(System.nanoTime()).as("%s sessions found in the folder within 20 s (%s so far)", expected, byId.size())
				.isLessThan(deadline);
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

}

package dev.arbor.summary;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.arbor.Fixtures;
import dev.arbor.session.EntryLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A branch summary of a real oh-my-pi session ({@code shared/fixtures/omp-v3-large-session.jsonl}): all of its
 * 1019 entries taken as the abandoned branch. Expected values come from scanning the file's JSON here, with a
 * plain mapper and none of the code under test.
 */
class LargeSessionSummaryTests {

	/** The default budget: upstream's context window of 128000 tokens less its 16384 reserved tokens. */
	private static final int DEFAULT_BUDGET = 128000 - 16384;

	private static final JsonMapper PLAIN = JsonMapper.builder().build();

	private static List<EntryLine> entries;

	private static List<JsonNode> nodes;

	/** Once for the class, but before each test, so that where the fixture is absent every test reports its skip. */
	@BeforeEach
	void load() throws IOException {
		if (entries != null) {
			return;
		}
		byte[] bytes = Files.readAllBytes(Fixtures.path(Fixtures.OMP_V3));
		entries = new ArrayList<>();
		nodes = new ArrayList<>();
		int start = 0;
		for (int i = 0; i < bytes.length; i++) {
			if (bytes[i] == '\n') {
				byte[] line = Arrays.copyOfRange(bytes, start, i);
				JsonNode node = PLAIN.readTree(line);
				String type = node.path("type").asString();
				if (!type.equals("title") && !type.equals("session")) {
					entries.add(EntryLine.of(line));
					nodes.add(node);
				}
				start = i + 1;
			}
		}
		assertThat(entries).hasSize(1019);
	}

	@Test
	void fileOperationsShouldBeThePathsOfTheReadEditAndWriteCallsOfTheFixture() {
		Set<String> read = new TreeSet<>();
		Set<String> modified = new TreeSet<>();
		int calls = 0;
		for (JsonNode toolCall : toolCalls()) {
			String name = toolCall.path("name").asString();
			JsonNode path = toolCall.path("arguments").path("path");
			if (Set.of("read", "edit", "write").contains(name) && path.isString() && !path.asString().isEmpty()) {
				calls++;
				(name.equals("read") ? read : modified).add(path.asString());
			}
		}
		read.removeAll(modified);
		FileOperations files = FileOperations.of(entries);
		// 50 read, 146 edit and 3 write calls: 23 files modified, 6 more only read (counted with a script too).
		assertThat(calls).isEqualTo(199);
		assertThat(files.modifiedFiles()).hasSize(23).containsExactlyElementsOf(modified);
		assertThat(files.readFiles()).hasSize(6).containsExactlyElementsOf(read);
		assertThat(files.block()).startsWith("\n\n<read-files>\n" + String.join("\n", read) + "\n</read-files>")
			.endsWith("<modified-files>\n" + String.join("\n", modified) + "\n</modified-files>");
	}

	@Test
	void theWholeFixtureShouldFitTheDefaultBudgetOnceToolResultsAreLeftOut() {
		// About 1 MB on disk, but most of it is tool output and usage data: the transcript is ~240 000 characters.
		BranchConversation conversation = BranchConversation.of(entries, DEFAULT_BUDGET);
		assertThat(conversation.messages()).isEqualTo(messagesWithContent());
		assertThat(conversation.dropped()).isZero();
		assertThat(conversation.tokens()).isBetween(50_000, DEFAULT_BUDGET);
		assertThat(conversation.transcript()).startsWith("[User]: " + firstUserText())
			.endsWith("[Assistant]: " + lastAssistantText());
	}

	@Test
	void theFixtureTwiceShouldKeepTheNewestMessagesWithinTheDefaultBudgetAndDropTheOldest() {
		List<EntryLine> twice = new ArrayList<>(entries);
		twice.addAll(entries);
		BranchConversation all = BranchConversation.of(twice, Integer.MAX_VALUE);
		BranchConversation conversation = BranchConversation.of(twice, DEFAULT_BUDGET);
		assertThat(all.tokens()).isGreaterThan(DEFAULT_BUDGET);
		assertThat(conversation.tokens()).isLessThanOrEqualTo(DEFAULT_BUDGET);
		assertThat(conversation.messages()).isGreaterThan(messagesWithContent()).isLessThan(2 * messagesWithContent());
		assertThat(conversation.dropped()).isPositive();
		assertThat(conversation.messages() + conversation.dropped()).isBetween(2 * messagesWithContent(),
				2 * messagesSummarized());
		assertThat(all.transcript()).endsWith("\n\n" + conversation.transcript());
		assertThat(conversation.transcript()).endsWith(BranchConversation.of(entries, DEFAULT_BUDGET).transcript());
	}

	@Test
	void theTranscriptShouldHoldNoToolResultText() {
		String transcript = BranchConversation.of(entries, Integer.MAX_VALUE).transcript();
		assertThat(transcript).doesNotContain("[Tool result]:");
		StringBuilder messageStrings = new StringBuilder();
		for (JsonNode node : nodes) {
			if (isMessage(node) && !role(node).equals("toolResult")) {
				appendStrings(node.path("message").path("content"), messageStrings);
			}
		}
		int checked = 0;
		for (JsonNode node : nodes) {
			String output = isMessage(node) && role(node).equals("toolResult") ? texts(node.path("message")) : "";
			String start = output.substring(0, Math.min(60, output.length()));
			// Some outputs were pasted by the user too; those may appear, as the user's.
			if (start.length() == 60 && messageStrings.indexOf(start) < 0) {
				assertThat(transcript).doesNotContain(start);
				checked++;
			}
		}
		assertThat(checked).isGreaterThan(250);
	}

	private static List<JsonNode> toolCalls() {
		List<JsonNode> calls = new ArrayList<>();
		for (JsonNode node : nodes) {
			if (isMessage(node) && role(node).equals("assistant")) {
				for (JsonNode block : node.path("message").path("content")) {
					if (block.path("type").asString("").equals("toolCall")) {
						calls.add(block);
					}
				}
			}
		}
		return calls;
	}

	/** User and assistant messages: 88 + 453. */
	private static int messagesSummarized() {
		return (int) nodes.stream()
			.filter((node) -> isMessage(node) && Set.of("user", "assistant").contains(role(node)))
			.count();
	}

	/** Those less the 14 aborted assistant messages with no content. */
	private static int messagesWithContent() {
		return (int) nodes.stream()
			.filter((node) -> isMessage(node) && Set.of("user", "assistant").contains(role(node))
					&& !node.path("message").path("content").isEmpty())
			.count();
	}

	private static String firstUserText() {
		return nodes.stream()
			.filter((node) -> isMessage(node) && role(node).equals("user"))
			.map((node) -> texts(node.path("message")))
			.findFirst()
			.orElseThrow();
	}

	private static String lastAssistantText() {
		String text = null;
		for (JsonNode node : nodes) {
			if (isMessage(node) && role(node).equals("assistant")) {
				text = texts(node.path("message"));
			}
		}
		return text;
	}

	private static boolean isMessage(JsonNode node) {
		return node.path("type").asString("").equals("message");
	}

	private static String role(JsonNode node) {
		return node.path("message").path("role").asString("");
	}

	private static String texts(JsonNode message) {
		StringBuilder text = new StringBuilder();
		for (JsonNode block : message.path("content")) {
			if (block.path("type").asString("").equals("text")) {
				text.append(block.path("text").asString(""));
			}
		}
		return text.toString();
	}

	private static void appendStrings(JsonNode node, StringBuilder into) {
		if (node.isString()) {
			into.append(node.asString()).append('\n');
		}
		for (JsonNode child : node) {
			appendStrings(child, into);
		}
	}

}

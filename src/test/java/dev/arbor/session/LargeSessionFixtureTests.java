package dev.arbor.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.arbor.Fixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine over a real oh-my-pi session ({@code shared/fixtures/omp-v3-large-session.jsonl}, see its
 * README): a title slot, a version-3 header and 1019 entries in one chain. The storage loader lives
 * elsewhere, so the lines are split here. Expected values were counted independently over the file.
 */
class LargeSessionFixtureTests {

	private static List<byte[]> fileLines;

	private static SessionTree tree;

	/** Once for the class, but before each test, so that where the fixture is absent every test reports its skip. */
	@BeforeEach
	void load() throws IOException {
		if (tree != null) {
			return;
		}
		byte[] bytes = Files.readAllBytes(Fixtures.path(Fixtures.OMP_V3));
		fileLines = new ArrayList<>();
		int start = 0;
		for (int i = 0; i < bytes.length; i++) {
			if (bytes[i] == '\n') {
				fileLines.add(Arrays.copyOfRange(bytes, start, i));
				start = i + 1;
			}
		}
		assertThat(start).as("file ends with a newline").isEqualTo(bytes.length);
		byte[] slot = fileLines.get(0);
		TitleSlot titleSlot = TitleSlot.parse(Json.parseObject(slot), slot);
		SessionHeader header = SessionHeader.parse(Json.parseObject(fileLines.get(1)));
		List<EntryLine> entries = new ArrayList<>();
		for (byte[] line : fileLines.subList(2, fileLines.size())) {
			entries.add(EntryLine.of(line));
		}
		tree = SessionTree.of(header, titleSlot, entries);
	}

	@Test
	void titleSlotShouldBe256BytesWithAnEmptyTitle() {
		assertThat(fileLines.get(0).length + 1).isEqualTo(TitleSlot.SIZE);
		assertThat(tree.titleSlot()).isNotNull();
		assertThat(tree.titleSlot().title()).isNull();
		assertThat(tree.title()).isNull();
	}

	@Test
	void headerShouldBeVersion3WithItsSessionIdAndCwd() {
		assertThat(tree.sessionId()).isEqualTo("d703a1a9-1b7b-4fb1-b512-c9738b1fe617");
		assertThat(tree.header().version()).isEqualTo(3);
		assertThat(tree.header().cwd()).isEqualTo("/Users/badlogic/workspaces/pi-mono");
	}

	@Test
	void entriesShouldMatchTheCountsOfTheFixtureReadme() {
		assertThat(tree.size()).isEqualTo(1019);
		Map<String, Long> types = tree.getEntries()
			.stream()
			.collect(Collectors.groupingBy(EntryLine::type, Collectors.counting()));
		assertThat(types).containsOnly(Map.entry("message", 914L), Map.entry("thinking_level_change", 103L),
				Map.entry("model_change", 1L), Map.entry("custom", 1L));
		Map<String, Long> roles = tree.getEntries()
			.stream()
			.filter((entry) -> entry.isType(EntryTypes.MESSAGE))
			.collect(Collectors.groupingBy((entry) -> entry.messageHead().role(), Collectors.counting()));
		assertThat(roles).containsOnly(Map.entry("user", 88L), Map.entry("assistant", 453L),
				Map.entry("toolResult", 373L));
	}

	@Test
	void entriesShouldKeepTheirStoredBytes() {
		List<EntryLine> entries = tree.getEntries();
		for (int i = 0; i < entries.size(); i++) {
			assertThat(entries.get(i).bytes()).isEqualTo(fileLines.get(i + 2));
		}
	}

	@Test
	void treeShouldBeOneChainFromTheFirstEntryToTheLast() {
		assertThat(tree.leafId()).isEqualTo("c7739972");
		assertThat(tree.getEntry("c7739972").orElseThrow().type()).isEqualTo("custom");
		List<EntryLine> path = tree.getPath(tree.leafId());
		assertThat(path).hasSize(1019);
		assertThat(path.get(0).id()).isEqualTo("663c75f5");
		SessionTreeView view = tree.getTree();
		assertThat(view.rootIds()).containsExactly("663c75f5");
		assertThat(view.nodes()).hasSize(1019);
		assertThat(view.nodes()).allSatisfy((node) -> assertThat(node.childIds()).hasSizeLessThanOrEqualTo(1));
		assertThat(view.nodes()).extracting(SessionTreeView.Node::label).containsOnlyNulls();
	}

	@Test
	void contextAtTheLeafShouldHoldEveryMessageAndTheLegacyDefaultModel() {
		SessionContext context = tree.buildSessionContext();
		assertThat(context.leafId()).isEqualTo("c7739972");
		assertThat(context.messages()).hasSize(914);
		assertThat(context.messages().stream().collect(Collectors.groupingBy(ContextMessage::role, Collectors.counting())))
			.containsOnly(Map.entry("user", 88L), Map.entry("assistant", 453L), Map.entry("toolResult", 373L));
		assertThat(context.thinkingLevel()).isEqualTo("off");
		assertThat(context.models()).containsExactly(Map.entry("default", "anthropic/claude-sonnet-4-5"));
		assertThat(context.mode()).isEqualTo("none");
		assertThat(context.injectedTtsrRules()).isEmpty();
		assertThat(context.forModel().messages()).hasSize(914);
	}

	@Test
	void contextBeforeTheModelChangeShouldTakeTheDefaultModelFromTheAssistantMessage() {
		SessionContext context = tree.buildSessionContext("19e7dd4e");
		assertThat(context.messages()).hasSize(2);
		assertThat(context.models()).containsExactly(Map.entry("default", "openai/gpt-5.1-codex"));
		assertThat(tree.buildSessionContext("c94944ed").models())
			.containsExactly(Map.entry("default", "anthropic/claude-sonnet-4-5"));
	}

	@Test
	void contextInTheMiddleShouldTrackTheThinkingLevelThere() {
		SessionContext context = tree.buildSessionContext("bbc5e480");
		assertThat(context.thinkingLevel()).isEqualTo("high");
		assertThat(context.messages()).hasSize(557);
	}

	@Test
	void messagesInTheContextShouldBeTheStoredMessages() {
		Map<String, EntryLine> byId = tree.getEntries()
			.stream()
			.collect(Collectors.toMap(EntryLine::id, Function.identity()));
		List<ContextMessage> messages = tree.buildSessionContext().messages();
		assertThat(messages).allSatisfy((message) -> {
			assertThat(message).isInstanceOf(ContextMessage.Stored.class);
			EntryLine entry = ((ContextMessage.Stored) message).entry();
			assertThat(Json.parseObject(entry.bytes()).get("message"))
				.isEqualTo(Json.parseObject(message.toJson().getBytes(StandardCharsets.UTF_8)));
			assertThat(byId).containsKey(entry.id());
		});
	}

}

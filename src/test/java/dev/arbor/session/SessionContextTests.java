package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.session.Entries.arr;
import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.branchSummary;
import static dev.arbor.session.Entries.compaction;
import static dev.arbor.session.Entries.entry;
import static dev.arbor.session.Entries.label;
import static dev.arbor.session.Entries.line;
import static dev.arbor.session.Entries.millisAt;
import static dev.arbor.session.Entries.modelChange;
import static dev.arbor.session.Entries.obj;
import static dev.arbor.session.Entries.textBlock;
import static dev.arbor.session.Entries.thinking;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code buildSessionContext} in the agent view (docs/SESSION-FORMAT.md#the-model-context): which leaf, the state
 * tracked along the path, and the messages, with compactions, branch summaries and custom messages.
 * The model view (docs/SESSION-FORMAT.md#the-llm-view) is in {@link ModelViewTests}.
 */
class SessionContextTests {

	private static final SessionContext EMPTY = new SessionContext(null, "off", Map.of(), "none", null, List.of(),
			List.of());

	// which leaf

	@Test
	void buildSessionContextWhenLeafIsNullShouldBeEmpty() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), thinking("t", "a", at(1), "high"),
				modelChange("m", "t", at(2), "anthropic/claude"));
		assertThat(tree.buildSessionContext(null)).isEqualTo(EMPTY);
	}

	@Test
	void buildSessionContextWhenSessionLeafIsResetShouldBeEmpty() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), thinking("t", "a", at(1), "high"));
		tree.resetLeaf();
		assertThat(tree.buildSessionContext()).isEqualTo(EMPTY);
	}

	@Test
	void buildSessionContextOfAnEmptySessionShouldBeEmpty() {
		SessionTree tree = tree();
		assertThat(tree.buildSessionContext()).isEqualTo(EMPTY);
		assertThat(tree.buildSessionContext("nope")).isEqualTo(EMPTY);
	}

	@Test
	void buildSessionContextWhenLeafIsUnknownShouldUseTheLastEntryInFileOrder() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "one branch"),
				user("c", "a", at(2), "other branch"));
		tree.branch("b");
		SessionContext context = tree.buildSessionContext("nope");
		assertThat(context.leafId()).isEqualTo("c");
		assertThat(messageIds(context)).containsExactly("a", "c");
	}

	@Test
	void buildSessionContextShouldDefaultToTheSessionLeaf() {
		SessionTree tree = tree(user("a", null, at(0), "root"), user("b", "a", at(1), "one branch"),
				user("c", "a", at(2), "other branch"));
		tree.branch("b");
		assertThat(tree.buildSessionContext().leafId()).isEqualTo("b");
		assertThat(messageIds(tree.buildSessionContext())).containsExactly("a", "b");
		assertThat(messageIds(tree.buildSessionContext("c"))).containsExactly("a", "c");
	}

	// state

	@Test
	void thinkingLevelWithoutChangesShouldBeOff() {
		assertThat(tree(user("a", null, at(0), "hi")).buildSessionContext().thinkingLevel()).isEqualTo("off");
	}

	@Test
	void thinkingLevelShouldBeTheLatestChangeOnThePath() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), thinking("t1", "a", at(1), "high"),
				thinking("t2", "t1", at(2), "minimal"), user("b", "t2", at(3), "go"),
				thinking("other", "a", at(4), "low"));
		assertThat(tree.buildSessionContext("b").thinkingLevel()).isEqualTo("minimal");
		assertThat(tree.buildSessionContext("t1").thinkingLevel()).isEqualTo("high");
		assertThat(tree.buildSessionContext("other").thinkingLevel()).isEqualTo("low");
	}

	@Test
	void thinkingLevelWhenLatestChangeIsNullShouldBeOff() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), thinking("t1", "a", at(1), "high"),
				thinking("t2", "t1", at(2), null));
		assertThat(tree.buildSessionContext().thinkingLevel()).isEqualTo("off");
	}

	@Test
	void modelChangeWithoutRoleShouldSetTheDefaultModel() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), modelChange("m", "a", at(1), "anthropic/claude-opus"));
		assertThat(tree.buildSessionContext().models()).containsExactly(Map.entry("default", "anthropic/claude-opus"));
	}

	@Test
	void modelChangeWithRoleShouldSetThatRole() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("model_change", "m1", "a", at(1), "model", "openai/gpt-5-mini", "role", "smol"),
				entry("model_change", "m2", "m1", at(2), "model", "anthropic/claude-opus", "role", "slow"),
				entry("model_change", "m3", "m2", at(3), "model", "openai/gpt-5-nano", "role", "smol"));
		assertThat(tree.buildSessionContext().models()).containsOnly(Map.entry("smol", "openai/gpt-5-nano"),
				Map.entry("slow", "anthropic/claude-opus"));
	}

	@Test
	void legacyModelChangeShouldSetTheDefaultModelFromProviderAndModelId() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("model_change", "m", "a", at(1), "provider", "anthropic", "modelId", "claude-sonnet-4-5"));
		assertThat(tree.buildSessionContext().models()).containsExactly(Map.entry("default", "anthropic/claude-sonnet-4-5"));
	}

	@Test
	void assistantMessagesShouldSetTheDefaultModelWhenNoModelChangeWasSeen() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), assistant("b", "a", at(1), "openai", "gpt-5", "one"),
				user("c", "b", at(2), "more"), assistant("d", "c", at(3), "anthropic", "claude-haiku", "two"),
				user("e", "d", at(4), "thanks"));
		assertThat(tree.buildSessionContext().models()).containsExactly(Map.entry("default", "anthropic/claude-haiku"));
		assertThat(tree.buildSessionContext("c").models()).containsExactly(Map.entry("default", "openai/gpt-5"));
	}

	@Test
	void assistantMessagesAfterAnExplicitDefaultModelChangeShouldNotChangeTheDefault() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), assistant("b", "a", at(1), "openai", "gpt-5", "one"),
				modelChange("m", "b", at(2), "anthropic/claude-opus"),
				assistant("c", "m", at(3), "openai", "gpt-5-codex", "two"));
		assertThat(tree.buildSessionContext("b").models()).containsExactly(Map.entry("default", "openai/gpt-5"));
		assertThat(tree.buildSessionContext("m").models()).containsExactly(Map.entry("default", "anthropic/claude-opus"));
		assertThat(tree.buildSessionContext("c").models()).containsExactly(Map.entry("default", "anthropic/claude-opus"));
	}

	@Test
	void explicitDefaultRoleShouldCountAsADefaultModelChange() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("model_change", "m", "a", at(1), "model", "anthropic/claude-opus", "role", "default"),
				assistant("c", "m", at(2), "openai", "gpt-5", "two"));
		assertThat(tree.buildSessionContext().models()).containsExactly(Map.entry("default", "anthropic/claude-opus"));
	}

	@Test
	void legacyModelChangeShouldCountAsAnExplicitDefault() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("model_change", "m", "a", at(1), "provider", "anthropic", "modelId", "claude-sonnet-4-5"),
				assistant("c", "m", at(2), "openai", "gpt-5", "two"));
		assertThat(tree.buildSessionContext().models()).containsExactly(Map.entry("default", "anthropic/claude-sonnet-4-5"));
	}

	@Test
	void modelChangeForAnotherRoleShouldNotStopAssistantMessagesSettingTheDefault() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("model_change", "m", "a", at(1), "model", "openai/gpt-5-mini", "role", "smol"),
				assistant("c", "m", at(2), "anthropic", "claude-opus", "two"));
		assertThat(tree.buildSessionContext().models()).containsOnly(Map.entry("smol", "openai/gpt-5-mini"),
				Map.entry("default", "anthropic/claude-opus"));
	}

	@Test
	void assistantMessageWithoutProviderOrModelShouldNotSetTheDefault() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), assistant("b", "a", at(1), "openai", "gpt-5", "one"),
				entry("message", "c", "b", at(2), "message", obj("role", "assistant", "content", arr(), "model", "x")),
				entry("message", "d", "c", at(3), "message", obj("role", "assistant", "content", arr())));
		assertThat(tree.buildSessionContext().models()).containsExactly(Map.entry("default", "openai/gpt-5"));
	}

	@Test
	void modelChangesOnAnotherBranchShouldNotCount() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), modelChange("m", "a", at(1), "anthropic/claude-opus"),
				assistant("b", "a", at(2), "openai", "gpt-5", "one"));
		assertThat(tree.buildSessionContext("b").models()).containsExactly(Map.entry("default", "openai/gpt-5"));
	}

	@Test
	void modeShouldBeNoneWithoutModeChanges() {
		SessionContext context = tree(user("a", null, at(0), "hi")).buildSessionContext();
		assertThat(context.mode()).isEqualTo("none");
		assertThat(context.modeData()).isNull();
	}

	@Test
	void modeAndModeDataShouldComeFromTheLatestModeChange() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("mode_change", "p", "a", at(1), "mode", "plan", "data", obj("planFile", "plan.md")),
				user("b", "p", at(2), "plan it"), entry("mode_change", "n", "b", at(3), "mode", "none"));
		SessionContext planning = tree.buildSessionContext("b");
		assertThat(planning.mode()).isEqualTo("plan");
		assertThat(planning.modeData()).isEqualTo(obj("planFile", "plan.md"));
		SessionContext after = tree.buildSessionContext("n");
		assertThat(after.mode()).isEqualTo("none");
		assertThat(after.modeData()).isNull();
	}

	@Test
	void injectedTtsrRulesShouldBeTheUnionInFirstSeenOrder() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("ttsr_injection", "r1", "a", at(1), "injectedRules", arr("no-any", "tests-first")),
				entry("ttsr_injection", "r2", "r1", at(2), "injectedRules", arr("tests-first", "small-commits")),
				entry("ttsr_injection", "r3", "r2", at(3), "injectedRules", arr("no-any", "docs")),
				entry("ttsr_injection", "elsewhere", "a", at(4), "injectedRules", arr("other-branch")));
		assertThat(tree.buildSessionContext("r3").injectedTtsrRules()).containsExactly("no-any", "tests-first",
				"small-commits", "docs");
	}

	@Test
	void stateBeforeACompactionShouldStillCount() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), thinking("t", "a", at(1), "high"),
				modelChange("m", "t", at(2), "anthropic/claude-opus"),
				entry("ttsr_injection", "r", "m", at(3), "injectedRules", arr("rule")), user("b", "r", at(4), "more"),
				compaction("k", "b", at(5), "Summary.", "b", 100), user("c", "k", at(6), "after"));
		SessionContext context = tree.buildSessionContext();
		assertThat(context.thinkingLevel()).isEqualTo("high");
		assertThat(context.models()).containsExactly(Map.entry("default", "anthropic/claude-opus"));
		assertThat(context.injectedTtsrRules()).containsExactly("rule");
		assertThat(roles(context)).containsExactly("compactionSummary", "user", "user");
	}

	// messages

	@Test
	void messagesWithoutCompactionShouldBeEveryMessageOnThePathInOrder() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), thinking("t", "a", at(1), "high"),
				assistant("b", "t", at(2), "openai", "gpt-5", "hello"), label("l", "b", at(3), "a", "start"),
				entry("custom", "x", "l", at(4), "customType", "marker"),
				entry("session_init", "s", "x", at(5), "systemPrompt", "sys"),
				entry("future_thing", "f", "s", at(6), "message", obj("role", "user", "content", "hidden")),
				entry("message", "tr", "f", at(7), "message",
						obj("role", "toolResult", "toolCallId", "call1", "content", arr(textBlock("ok")))),
				user("c", "tr", at(8), "bye"), user("off", "a", at(9), "other branch"));
		SessionContext context = tree.buildSessionContext("c");
		assertThat(messageIds(context)).containsExactly("a", "b", "tr", "c");
		assertThat(roles(context)).containsExactly("user", "assistant", "toolResult", "user");
	}

	@Test
	void messageShouldBeEmittedExactlyAsStored() {
		String stored = "{\"role\": \"user\",  \"content\": \"spaced out – ünïcödé 日本 😀\", \"extra\": {\"kept\": [1, 2.50]}}";
		SessionTree tree = tree(line("{\"type\":\"message\",\"id\":\"a\",\"note\":\"ça → 漢字 🌳\",\"parentId\":null,"
				+ "\"timestamp\":\"" + at(0) + "\",\"message\": " + stored + ",\"after\":\"é\"}"));
		List<ContextMessage> messages = tree.buildSessionContext().messages();
		assertThat(messages).hasSize(1);
		assertThat(messages.get(0).toJson()).isEqualTo(stored);
		assertThat(messages.get(0).role()).isEqualTo("user");
	}

	@Test
	void customMessageShouldBecomeACustomRoleMessage() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("custom_message", "cm", "a", at(1), "customType", "reminder", "content", "Remember the tests.",
						"display", true, "details", obj("source", "hook"), "extra", "not copied"));
		List<ContextMessage> messages = tree.buildSessionContext().messages();
		assertThat(messages).hasSize(2);
		assertThat(node(messages.get(1))).isEqualTo(obj("role", "custom", "customType", "reminder", "content",
				"Remember the tests.", "display", true, "details", obj("source", "hook"), "timestamp", millisAt(1)));
	}

	@Test
	void customMessageWithBlockContentShouldKeepTheBlocks() {
		SessionTree tree = tree(entry("custom_message", "cm", null, at(1), "customType", "img", "content",
				arr(textBlock("see"), obj("type", "image", "data", "AAAA", "mimeType", "image/png")), "display", false));
		assertThat(node(tree.buildSessionContext().messages().get(0))).isEqualTo(obj("role", "custom", "customType",
				"img", "content", arr(textBlock("see"), obj("type", "image", "data", "AAAA", "mimeType", "image/png")),
				"display", false, "timestamp", millisAt(1)));
	}

	@Test
	void branchSummaryWithASummaryShouldBecomeABranchSummaryMessage() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), branchSummary("s", "a", at(5), "a", "Tried X, failed."),
				user("b", "s", at(6), "go on"));
		List<ContextMessage> messages = tree.buildSessionContext().messages();
		assertThat(roles(tree.buildSessionContext())).containsExactly("user", "branchSummary", "user");
		assertThat(node(messages.get(1))).isEqualTo(
				obj("role", "branchSummary", "summary", "Tried X, failed.", "fromId", "a", "timestamp", millisAt(5)));
	}

	@Test
	void branchSummaryWithAnEmptyOrMissingSummaryShouldEmitNothing() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), branchSummary("s1", "a", at(1), "a", ""),
				entry("branch_summary", "s2", "s1", at(2), "fromId", "root"), user("b", "s2", at(3), "go on"));
		assertThat(messageIds(tree.buildSessionContext())).containsExactly("a", "b");
	}

	@Test
	void compactionShouldEmitItsSummaryThenTheKeptEntriesThenEverythingAfter() {
		SessionTree tree = tree(user("u1", null, at(0), "one"), assistant("a1", "u1", at(1), "p", "m", "one"),
				user("u2", "a1", at(2), "two"), assistant("a2", "u2", at(3), "p", "m", "two"),
				compaction("k", "a2", at(4), "Did one and two.", "u2", 5000), user("u3", "k", at(5), "three"),
				assistant("a3", "u3", at(6), "p", "m", "three"));
		List<ContextMessage> messages = tree.buildSessionContext().messages();
		assertThat(node(messages.get(0))).isEqualTo(obj("role", "compactionSummary", "summary", "Did one and two.",
				"tokensBefore", 5000, "timestamp", millisAt(4)));
		assertThat(messageIds(tree.buildSessionContext())).containsExactly("Did one and two.", "u2", "a2", "u3", "a3");
	}

	@Test
	void compactionWithoutTokensBeforeShouldLeaveTheFieldOutAsUpstreamDoes() {
		SessionTree tree = tree(user("u1", null, at(0), "one"), Entries.line(
				("{'type':'compaction','id':'k','parentId':'u1','timestamp':'" + at(1) + "','summary':'S.','firstKeptEntryId':'u1'}")
					.replace('\'', '"')));
		assertThat(node(tree.buildSessionContext().messages().get(0)))
			.isEqualTo(obj("role", "compactionSummary", "summary", "S.", "timestamp", millisAt(1)));
	}

	@Test
	void compactionWhenFirstKeptEntryIsNotOnThePathShouldKeepNothingBeforeIt() {
		SessionTree tree = tree(user("u1", null, at(0), "one"), user("side", "u1", at(1), "side branch"),
				assistant("a1", "u1", at(2), "p", "m", "one"), compaction("k1", "a1", at(3), "Gone.", "side", 10),
				user("u2", "k1", at(4), "two"), compaction("k2", "u2", at(5), "Gone too.", "nowhere", 20),
				user("u3", "k2", at(6), "three"));
		assertThat(messageIds(tree.buildSessionContext("u2"))).containsExactly("Gone.", "u2");
		assertThat(messageIds(tree.buildSessionContext("u3"))).containsExactly("Gone too.", "u3");
	}

	@Test
	void compactionWhenThereAreSeveralShouldUseTheLatest() {
		SessionTree tree = tree(user("u1", null, at(0), "one"), assistant("a1", "u1", at(1), "p", "m", "one"),
				compaction("k1", "a1", at(2), "First.", "u1", 10), user("u2", "k1", at(3), "two"),
				assistant("a2", "u2", at(4), "p", "m", "two"), compaction("k2", "a2", at(5), "Second.", "u2", 20),
				user("u3", "k2", at(6), "three"));
		SessionContext context = tree.buildSessionContext();
		assertThat(messageIds(context)).containsExactly("Second.", "u2", "a2", "u3");
	}

	@Test
	void compactionWhenLatestKeepsFromBeforeAnEarlierCompactionShouldSkipTheEarlierOne() {
		SessionTree tree = tree(user("u1", null, at(0), "one"), assistant("a1", "u1", at(1), "p", "m", "one"),
				compaction("k1", "a1", at(2), "First.", "u1", 10), user("u2", "k1", at(3), "two"),
				compaction("k2", "u2", at(4), "Second.", "a1", 20), user("u3", "k2", at(5), "three"));
		assertThat(messageIds(tree.buildSessionContext())).containsExactly("Second.", "a1", "u2", "u3");
	}

	@Test
	void compactionShouldKeepCustomMessagesAndBranchSummariesFromTheFirstKeptEntry() {
		SessionTree tree = tree(user("u1", null, at(0), "one"),
				entry("custom_message", "cm", "u1", at(1), "customType", "note", "content", "n", "display", true),
				branchSummary("bs", "cm", at(2), "cm", "Elsewhere."), thinking("t", "bs", at(3), "low"),
				compaction("k", "t", at(4), "Summary.", "cm", 30));
		assertThat(roles(tree.buildSessionContext())).containsExactly("compactionSummary", "custom", "branchSummary");
	}

	@Test
	void compactionAtTheLeafShouldEmitOnlyItsSummaryAndTheKeptEntries() {
		SessionTree tree = tree(user("u1", null, at(0), "one"), user("u2", "u1", at(1), "two"),
				compaction("k", "u2", at(2), "Summary.", "u2", 30));
		assertThat(messageIds(tree.buildSessionContext())).containsExactly("Summary.", "u2");
	}

	/** Per message the id of the entry it came from, the summary of a compaction summary, else the role. */
	private static List<String> messageIds(SessionContext context) {
		List<String> ids = new ArrayList<>();
		for (ContextMessage message : context.messages()) {
			if (message instanceof ContextMessage.Stored stored) {
				ids.add(stored.entry().id());
			}
			else if (message instanceof ContextMessage.CompactionSummary summary) {
				ids.add(summary.summary());
			}
			else {
				ids.add(message.role());
			}
		}
		return ids;
	}

	static List<String> roles(SessionContext context) {
		List<String> roles = new ArrayList<>();
		context.messages().forEach((message) -> roles.add(message.role()));
		return roles;
	}

	static ObjectNode node(ContextMessage message) {
		return Json.parseObject(message.toJson().getBytes(StandardCharsets.UTF_8));
	}

}

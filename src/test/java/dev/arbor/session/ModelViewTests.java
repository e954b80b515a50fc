package dev.arbor.session;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.session.Entries.arr;
import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.branchSummary;
import static dev.arbor.session.Entries.compaction;
import static dev.arbor.session.Entries.entry;
import static dev.arbor.session.Entries.millisAt;
import static dev.arbor.session.Entries.obj;
import static dev.arbor.session.Entries.textBlock;
import static dev.arbor.session.Entries.thinking;
import static dev.arbor.session.Entries.tree;
import static dev.arbor.session.Entries.user;
import static dev.arbor.session.SessionContextTests.node;
import static dev.arbor.session.SessionContextTests.roles;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context as a model receives it (docs/SESSION-FORMAT.md#the-llm-view, {@code convertToLlm} upstream): summaries,
 * custom and bash messages become user messages with the upstream texts, the three LLM roles pass
 * unchanged and anything else is dropped.
 */
class ModelViewTests {

	@Test
	void userAssistantAndToolResultMessagesShouldPassUnchanged() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), assistant("b", "a", at(1), "openai", "gpt-5", "hello"),
				entry("message", "c", "b", at(2), "message",
						obj("role", "toolResult", "toolCallId", "t1", "content", arr(textBlock("ok")), "isError", false)));
		SessionContext agent = tree.buildSessionContext();
		SessionContext model = agent.forModel();
		assertThat(model.messages()).containsExactlyElementsOf(agent.messages());
		assertThat(model.messages().get(2).toJson()).isEqualTo(agent.messages().get(2).toJson());
	}

	@Test
	void forModelShouldKeepTheState() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), thinking("t", "a", at(1), "high"),
				entry("mode_change", "m", "t", at(2), "mode", "plan", "data", obj("f", 1)));
		SessionContext agent = tree.buildSessionContext();
		SessionContext model = agent.forModel();
		assertThat(model.leafId()).isEqualTo("m");
		assertThat(model.thinkingLevel()).isEqualTo("high");
		assertThat(model.mode()).isEqualTo("plan");
		assertThat(model.modeData()).isEqualTo(obj("f", 1));
		assertThat(model.models()).isEqualTo(agent.models());
	}

	@Test
	void branchSummaryShouldBecomeAUserMessageWithTheLeadInAndTheWrappedSummary() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), branchSummary("s", "a", at(7), "a", "Tried X, failed."));
		List<ContextMessage> messages = tree.buildSessionContext().forModel().messages();
		assertThat(node(messages.get(1))).isEqualTo(obj("role", "user", "content",
				arr(textBlock("The following is a summary of a branch that this conversation came back from:\n\n"
						+ "<summary>\nTried X, failed.</summary>")),
				"timestamp", millisAt(7)));
	}

	@Test
	void compactionSummaryShouldBecomeAUserMessageWithTheLeadInAndTheWrappedSummary() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), compaction("k", "a", at(3), "Said hi.", "a", 42));
		List<ContextMessage> messages = tree.buildSessionContext().forModel().messages();
		assertThat(roles(tree.buildSessionContext().forModel())).containsExactly("user", "user");
		assertThat(node(messages.get(0))).isEqualTo(obj("role", "user", "content",
				arr(textBlock("The conversation history before this point was compacted into the following summary:\n\n"
						+ "<summary>\nSaid hi.\n</summary>")),
				"timestamp", millisAt(3)));
	}

	@Test
	void customMessageWithStringContentShouldBecomeAUserMessageWithOneTextBlock() {
		SessionTree tree = tree(entry("custom_message", "cm", null, at(2), "customType", "reminder", "content",
				"Remember the tests.", "display", false, "details", obj("k", 1)));
		assertThat(node(tree.buildSessionContext().forModel().messages().get(0))).isEqualTo(
				obj("role", "user", "content", arr(textBlock("Remember the tests.")), "timestamp", millisAt(2)));
	}

	@Test
	void customMessageWithBlockContentShouldKeepTheBlocks() {
		SessionTree tree = tree(entry("custom_message", "cm", null, at(2), "customType", "img", "content",
				arr(textBlock("see"), obj("type", "image", "data", "AAAA", "mimeType", "image/png")), "display", true));
		assertThat(node(tree.buildSessionContext().forModel().messages().get(0))).isEqualTo(obj("role", "user",
				"content", arr(textBlock("see"), obj("type", "image", "data", "AAAA", "mimeType", "image/png")),
				"timestamp", millisAt(2)));
	}

	@Test
	void customRoleMessageShouldBecomeAUserMessageWithItsOwnTimestamp() {
		SessionTree tree = tree(entry("message", "m", null, at(2), "message",
				obj("role", "custom", "customType", "hook", "content", "From a hook.", "display", true, "timestamp", 17L)));
		assertThat(node(tree.buildSessionContext().forModel().messages().get(0)))
			.isEqualTo(obj("role", "user", "content", arr(textBlock("From a hook.")), "timestamp", 17));
	}

	@Test
	void hookMessageShouldBeTreatedAsACustomMessage() {
		SessionTree tree = tree(entry("message", "m", null, at(2), "message", obj("role", "hookMessage", "customType",
				"hook", "content", arr(textBlock("Legacy hook.")), "display", true, "timestamp", 17L)));
		assertThat(node(tree.buildSessionContext().forModel().messages().get(0)))
			.isEqualTo(obj("role", "user", "content", arr(textBlock("Legacy hook.")), "timestamp", 17));
	}

	@Test
	void bashExecutionWithOutputShouldBecomeAUserTextWithTheOutputFenced() {
		assertThat(bashText(obj("command", "ls", "output", "a.txt\nb.txt", "exitCode", 0, "cancelled", false,
				"truncated", false))).isEqualTo("Ran `ls`\n```\na.txt\nb.txt\n```");
	}

	@Test
	void bashExecutionWithoutOutputAndAFailingExitCodeShouldSaySo() {
		assertThat(bashText(obj("command", "false", "output", "", "exitCode", 2, "cancelled", false, "truncated",
				false))).isEqualTo("Ran `false`\n(no output)\n\nCommand exited with code 2");
	}

	@Test
	void bashExecutionWhenCancelledShouldSayCancelledInsteadOfTheExitCode() {
		assertThat(bashText(obj("command", "sleep 100", "output", "", "exitCode", 130, "cancelled", true, "truncated",
				false))).isEqualTo("Ran `sleep 100`\n(no output)\n\n(command cancelled)");
	}

	@Test
	void bashExecutionWhenTruncatedShouldNameTheFullOutput() {
		assertThat(bashText(obj("command", "cat big.log", "output", "head", "exitCode", null, "cancelled", false,
				"truncated", true, "fullOutputPath", "/tmp/full.log")))
			.isEqualTo("Ran `cat big.log`\n```\nhead\n```\n\n[Output truncated. Full output: /tmp/full.log]");
	}

	@Test
	void bashExecutionShouldKeepItsTimestamp() {
		SessionTree tree = tree(entry("message", "m", null, at(2), "message", obj("role", "bashExecution", "command",
				"pwd", "output", "/w", "exitCode", 0, "cancelled", false, "truncated", false, "timestamp", 99L)));
		assertThat(node(tree.buildSessionContext().forModel().messages().get(0)))
			.isEqualTo(obj("role", "user", "content", arr(textBlock("Ran `pwd`\n```\n/w\n```")), "timestamp", 99));
	}

	@Test
	void bashExecutionExcludedFromContextShouldBeDropped() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("message", "m", "a", at(1), "message", obj("role", "bashExecution", "command", "secret", "output",
						"x", "exitCode", 0, "cancelled", false, "truncated", false, "excludeFromContext", true)));
		assertThat(roles(tree.buildSessionContext())).containsExactly("user", "bashExecution");
		assertThat(roles(tree.buildSessionContext().forModel())).containsExactly("user");
	}

	@Test
	void messagesWithUnknownRolesShouldBeDropped() {
		SessionTree tree = tree(user("a", null, at(0), "hi"),
				entry("message", "n", "a", at(1), "message", obj("role", "notification", "content", "ping")),
				entry("message", "r", "n", at(2), "message", obj("content", "no role at all")),
				user("b", "r", at(3), "bye"));
		assertThat(roles(tree.buildSessionContext())).containsExactly("user", "notification", "", "user");
		assertThat(roles(tree.buildSessionContext().forModel())).containsExactly("user", "user");
	}

	@Test
	void modelViewShouldKeepTheOrderOfTheAgentView() {
		SessionTree tree = tree(user("a", null, at(0), "hi"), assistant("b", "a", at(1), "p", "m", "hello"),
				compaction("k", "b", at(2), "Greetings.", "b", 10),
				entry("custom_message", "cm", "k", at(3), "customType", "note", "content", "n", "display", true),
				branchSummary("s", "cm", at(4), "cm", "Elsewhere."), user("c", "s", at(5), "bye"));
		assertThat(roles(tree.buildSessionContext())).containsExactly("compactionSummary", "assistant", "custom",
				"branchSummary", "user");
		assertThat(roles(tree.buildSessionContext().forModel())).containsExactly("user", "assistant", "user", "user",
				"user");
	}

	private static String bashText(ObjectNode fields) {
		ObjectNode message = obj("role", "bashExecution");
		message.setAll(fields);
		message.put("timestamp", 1L);
		SessionTree tree = tree(entry("message", "m", null, at(0), "message", message));
		List<ContextMessage> messages = tree.buildSessionContext().forModel().messages();
		assertThat(messages).hasSize(1);
		assertThat(messages.get(0).role()).isEqualTo("user");
		return node(messages.get(0)).get("content").get(0).get("text").asString();
	}

}

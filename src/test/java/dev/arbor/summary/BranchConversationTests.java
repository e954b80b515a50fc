package dev.arbor.summary;

import java.util.List;

import dev.arbor.session.EntryLine;
import org.junit.jupiter.api.Test;

import static dev.arbor.summary.BranchEntries.BRANCH_SUMMARY_LEAD_IN;
import static dev.arbor.summary.BranchEntries.COMPACTION_LEAD_IN;
import static dev.arbor.summary.BranchEntries.arr;
import static dev.arbor.summary.BranchEntries.assistant;
import static dev.arbor.summary.BranchEntries.branchSummary;
import static dev.arbor.summary.BranchEntries.compaction;
import static dev.arbor.summary.BranchEntries.entry;
import static dev.arbor.summary.BranchEntries.message;
import static dev.arbor.summary.BranchEntries.obj;
import static dev.arbor.summary.BranchEntries.text;
import static dev.arbor.summary.BranchEntries.toolCall;
import static dev.arbor.summary.BranchEntries.toolResult;
import static dev.arbor.summary.BranchEntries.user;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The abandoned conversation as the summary model reads it (docs/SESSION-FORMAT.md#navigation, upstream's
 * {@code prepareBranchEntries} then {@code serializeConversation}): which entries it is made of, and how the
 * token budget picks the newest of them.
 */
class BranchConversationTests {

	private static final int NO_LIMIT = Integer.MAX_VALUE;

	@Test
	void messagesCustomMessagesAndSummariesShouldBeRenderedAsTheModelSeesThem() {
		List<EntryLine> entries = List.of(user("u1", "Make the tests pass."),
				assistant("a1", text("Reading the test."), toolCall("read", obj("path", "a.ts"))),
				entry("custom_message", "cm", "customType", "reminder", "content", "Remember the tests.", "display", false),
				entry("custom_message", "cb", "customType", "note", "content", arr(text("Block "), text("note.")),
						"display", true),
				branchSummary("bs", "Tried X, it failed."), compaction("co", "Said hi."));
		BranchConversation conversation = BranchConversation.of(entries, NO_LIMIT);
		List<String> parts = List.of("[User]: Make the tests pass.",
				"[Assistant]: Reading the test.\n\n[Assistant tool calls]: read(path=\"a.ts\")",
				"[User]: Remember the tests.", "[User]: Block note.",
				"[User]: " + BRANCH_SUMMARY_LEAD_IN + "Tried X, it failed.</summary>",
				"[User]: " + COMPACTION_LEAD_IN + "Said hi.\n</summary>");
		assertThat(conversation.transcript()).isEqualTo(String.join("\n\n", parts));
		assertThat(conversation.messages()).isEqualTo(6);
		assertThat(conversation.dropped()).isZero();
		assertThat(conversation.tokens()).isEqualTo(parts.stream().mapToInt(Transcript::estimateTokens).sum());
	}

	@Test
	void toolResultsAndEntriesThatAreNoMessagesShouldBeLeftOut() {
		List<EntryLine> entries = List.of(user("u1", "List the files."),
				assistant("a1", toolCall("bash", obj("command", "ls"))), toolResult("t1", "SECRET-TOOL-OUTPUT"),
				entry("label", "l1", "targetId", "u1", "label", "start"),
				entry("model_change", "mc", "model", "openai/gpt-5"),
				entry("thinking_level_change", "tl", "thinkingLevel", "high"),
				entry("custom", "cu", "customType", "session_exit", "data", obj("reason", "SECRET-CUSTOM-DATA")),
				branchSummary("b0", ""), user("u2", "Thanks."));
		BranchConversation conversation = BranchConversation.of(entries, NO_LIMIT);
		assertThat(conversation.transcript())
			.isEqualTo("[User]: List the files.\n\n[Assistant tool calls]: bash(command=\"ls\")\n\n[User]: Thanks.");
		assertThat(conversation.messages()).isEqualTo(3);
		assertThat(conversation.dropped()).isZero();
	}

	@Test
	void customAndBashExecutionMessagesShouldBeUserTextAndExcludedBashExecutionsLeftOut() {
		List<EntryLine> entries = List.of(
				message("h1", obj("role", "custom", "customType", "hook", "content", "From a hook.", "display", true)),
				message("b1", obj("role", "bashExecution", "command", "ls", "output", "pom.xml", "exitCode", 0)),
				message("b2", obj("role", "bashExecution", "command", "env", "output", "SECRET", "exitCode", 0,
						"excludeFromContext", true)));
		BranchConversation conversation = BranchConversation.of(entries, NO_LIMIT);
		assertThat(conversation.transcript()).isEqualTo("[User]: From a hook.\n\n[User]: Ran `ls`\n```\npom.xml\n```");
		assertThat(conversation.messages()).isEqualTo(2);
	}

	@Test
	void aBranchLargerThanTheBudgetShouldDropTheOldestMessagesFirst() {
		List<EntryLine> entries = List.of(userOfTokens("u1", 10), toolResult("t1", "old output"), userOfTokens("u2", 10),
				userOfTokens("u3", 10), entry("label", "l1", "targetId", "u3", "label", "mark"), userOfTokens("u4", 10),
				userOfTokens("u5", 10));
		BranchConversation conversation = BranchConversation.of(entries, 35);
		assertThat(conversation.transcript()).isEqualTo(String.join("\n\n", rendered("u3", 10), rendered("u4", 10),
				rendered("u5", 10)));
		assertThat(conversation.messages()).isEqualTo(3);
		assertThat(conversation.dropped()).isEqualTo(2);
		assertThat(conversation.tokens()).isEqualTo(30);
	}

	@Test
	void messagesThatFillTheBudgetExactlyShouldAllBeKept() {
		List<EntryLine> entries = List.of(userOfTokens("u1", 10), userOfTokens("u2", 10), userOfTokens("u3", 10));
		BranchConversation conversation = BranchConversation.of(entries, 30);
		assertThat(conversation.messages()).isEqualTo(3);
		assertThat(conversation.dropped()).isZero();
		assertThat(conversation.tokens()).isEqualTo(30);
	}

	@Test
	void aMessageThatDoesNotFitShouldStopTheWalkEvenWhenAnOlderOneWouldFit() {
		List<EntryLine> entries = List.of(userOfTokens("u1", 5), userOfTokens("u2", 50), userOfTokens("u3", 60));
		BranchConversation conversation = BranchConversation.of(entries, 100);
		assertThat(conversation.transcript()).isEqualTo(rendered("u3", 60));
		assertThat(conversation.messages()).isEqualTo(1);
		assertThat(conversation.dropped()).isEqualTo(2);
		assertThat(conversation.tokens()).isEqualTo(60);
	}

	@Test
	void aSummaryThatDoesNotFitShouldStillGoInBelow90PercentOfTheBudgetAndThenStopTheWalk() {
		EntryLine summary = branchSummaryOfTokens("bs", 60);
		List<EntryLine> entries = List.of(userOfTokens("u1", 5), summary, userOfTokens("u2", 89));
		BranchConversation conversation = BranchConversation.of(entries, 100);
		assertThat(conversation.transcript()).startsWith("[User]: " + BRANCH_SUMMARY_LEAD_IN)
			.endsWith("</summary>\n\n" + rendered("u2", 89));
		assertThat(conversation.messages()).isEqualTo(2);
		assertThat(conversation.dropped()).isEqualTo(1);
		assertThat(conversation.tokens()).isEqualTo(149);
	}

	@Test
	void aCompactionThatDoesNotFitShouldStillGoInBelow90PercentOfTheBudget() {
		List<EntryLine> entries = List.of(compactionOfTokens("co", 30), userOfTokens("u1", 80));
		BranchConversation conversation = BranchConversation.of(entries, 100);
		assertThat(conversation.transcript()).startsWith("[User]: " + COMPACTION_LEAD_IN)
			.endsWith("\n</summary>\n\n" + rendered("u1", 80));
		assertThat(conversation.messages()).isEqualTo(2);
		assertThat(conversation.dropped()).isZero();
		assertThat(conversation.tokens()).isEqualTo(110);
	}

	@Test
	void aSummaryThatDoesNotFitShouldBeDroppedOnceTheBudgetIs90PercentUsed() {
		List<EntryLine> entries = List.of(userOfTokens("u1", 5), compactionOfTokens("co", 40),
				branchSummaryOfTokens("bs", 40), userOfTokens("u2", 90));
		BranchConversation conversation = BranchConversation.of(entries, 100);
		assertThat(conversation.transcript()).isEqualTo(rendered("u2", 90));
		assertThat(conversation.messages()).isEqualTo(1);
		assertThat(conversation.dropped()).isEqualTo(3);
		assertThat(conversation.tokens()).isEqualTo(90);
	}

	@Test
	void aNewestMessageLargerThanTheBudgetShouldBeCutToTheBudgetRatherThanLeftOut() {
		String newest = "[User]: " + "n".repeat(192);
		List<EntryLine> entries = List.of(user("u1", "older"), user("u2", "n".repeat(192)), toolResult("t1", "output"),
				entry("label", "l1", "targetId", "u2", "label", "big"));
		BranchConversation conversation = BranchConversation.of(entries, 10);
		String cut = newest.substring(0, 20) + "\n\n[... 180 more characters truncated]";
		assertThat(conversation.transcript()).isEqualTo(cut);
		assertThat(conversation.messages()).isEqualTo(1);
		assertThat(conversation.dropped()).isEqualTo(1);
		assertThat(conversation.tokens()).isEqualTo(Transcript.estimateTokens(cut));
	}

	@Test
	void aNewestMessageCutToTheBudgetShouldStayWithinItTruncationNoteIncluded() {
		BranchConversation conversation = BranchConversation.of(List.of(user("u1", "n".repeat(100_000))), 1000);
		assertThat(conversation.transcript()).endsWith(" more characters truncated]");
		assertThat(conversation.tokens()).isLessThanOrEqualTo(1000);
	}

	@Test
	void noEntriesShouldGiveAnEmptyConversation() {
		BranchConversation conversation = BranchConversation.of(List.of(), 100);
		assertThat(conversation).isEqualTo(new BranchConversation("", 0, 0, 0));
	}

	@Test
	void entriesWithoutMessagesShouldGiveAnEmptyConversation() {
		List<EntryLine> entries = List.of(entry("label", "l1", "targetId", "x", "label", "mark"),
				toolResult("t1", "output"), entry("model_change", "mc", "model", "openai/gpt-5"));
		assertThat(BranchConversation.of(entries, 100)).isEqualTo(new BranchConversation("", 0, 0, 0));
	}

	/** A user message whose transcript part is exactly {@code tokens} × 4 characters. */
	private static EntryLine userOfTokens(String id, int tokens) {
		return user(id, filler(id, tokens * 4 - "[User]: ".length()));
	}

	private static String rendered(String id, int tokens) {
		return "[User]: " + filler(id, tokens * 4 - "[User]: ".length());
	}

	private static EntryLine branchSummaryOfTokens(String id, int tokens) {
		int frame = "[User]: ".length() + BRANCH_SUMMARY_LEAD_IN.length() + "</summary>".length();
		return branchSummary(id, filler(id, tokens * 4 - frame));
	}

	private static EntryLine compactionOfTokens(String id, int tokens) {
		int frame = "[User]: ".length() + COMPACTION_LEAD_IN.length() + "\n</summary>".length();
		return compaction(id, filler(id, tokens * 4 - frame));
	}

	/** {@code length} characters that start with the id, so that each message is told apart. */
	private static String filler(String id, int length) {
		return (id + ":" + "x".repeat(length)).substring(0, length);
	}

}

package dev.arbor.summary;

import java.nio.charset.StandardCharsets;

import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.summary.BranchEntries.arr;
import static dev.arbor.summary.BranchEntries.obj;
import static dev.arbor.summary.BranchEntries.text;
import static dev.arbor.summary.BranchEntries.thinking;
import static dev.arbor.summary.BranchEntries.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One model-view message as transcript text, as upstream's {@code serializeConversation} writes it
 * (pi-coding-agent {@code core/compaction/utils.js}).
 */
class TranscriptTests {

	@Test
	void userMessageWithStringContentShouldRenderAsUser() {
		assertThat(Transcript.render(obj("role", "user", "content", "Fix the build."))).isEqualTo("[User]: Fix the build.");
	}

	@Test
	void userMessageWithBlocksShouldJoinItsTextBlocksWithoutSeparatorAndSkipImages() {
		ObjectNode message = obj("role", "user", "content", arr(text("Look at "),
				obj("type", "image", "data", "iVBORw0KGgo=", "mimeType", "image/png"), text("this screenshot.")));
		assertThat(Transcript.render(message)).isEqualTo("[User]: Look at this screenshot.");
	}

	@Test
	void assistantMessageShouldRenderThinkingThenTextThenToolCallsEachJoinedInItsOwnPart() {
		ObjectNode message = obj("role", "assistant", "content",
				arr(thinking("The config is probably wrong."), text("Let me look."),
						toolCall("read", obj("path", "a.ts")), thinking("Then list the files."), text("And the folder."),
						toolCall("bash", obj("command", "ls -la", "timeout", 10))));
		assertThat(Transcript.render(message))
			.isEqualTo("[Assistant thinking]: The config is probably wrong.\nThen list the files.\n\n"
					+ "[Assistant]: Let me look.\nAnd the folder.\n\n"
					+ "[Assistant tool calls]: read(path=\"a.ts\"); bash(command=\"ls -la\", timeout=10)");
	}

	@Test
	void toolCallArgumentsShouldBeWrittenAsJsonStringifyWritesThemInTheirStoredOrder() {
		ObjectNode arguments = obj("zeta", "say \"hi\"\\\n\ttab", "alpha", true, "none", null, "list", arr(1, "x"),
				"nested", obj("k", "v", "n", 2.5), "path", "src/ä/ü.ts");
		ObjectNode message = obj("role", "assistant", "content", arr(toolCall("edit", arguments), toolCall("noop", obj())));
		// Checked against node: JSON.stringify escapes quotes, backslashes and control characters and nothing else.
		assertThat(Transcript.render(message)).isEqualTo("[Assistant tool calls]: edit(zeta=\"say \\\"hi\\\"\\\\\\n\\ttab\", "
				+ "alpha=true, none=null, list=[1,\"x\"], nested={\"k\":\"v\",\"n\":2.5}, path=\"src/ä/ü.ts\"); noop()");
	}

	@Test
	void toolCallNumbersAndControlCharactersShouldBeWrittenAsJavaScriptWritesThem() {
		// As stored by a client that is not JavaScript; upstream reads 10.0 as 10 and escapes ESC in lower-case hex.
		ObjectNode message = Json.parseObject(("{\"role\":\"assistant\",\"content\":[{\"type\":\"toolCall\","
				+ "\"name\":\"bash\",\"arguments\":{\"command\":\"printf '\\u001b[31m'\",\"timeout\":10.0,"
				+ "\"delay\":1e3}}]}").getBytes(StandardCharsets.UTF_8));
		assertThat(Transcript.render(message))
			.isEqualTo("[Assistant tool calls]: bash(command=\"printf '\\u001b[31m'\", timeout=10, delay=1000)");
	}

	@Test
	void assistantMessageWithOnlyToolCallsShouldRenderOnlyTheToolCallsPart() {
		ObjectNode message = obj("role", "assistant", "content", arr(toolCall("read", obj("path", "pom.xml"))));
		assertThat(Transcript.render(message)).isEqualTo("[Assistant tool calls]: read(path=\"pom.xml\")");
	}

	@Test
	void toolResultShouldJoinItsTextBlocks() {
		ObjectNode message = obj("role", "toolResult", "toolCallId", "c1", "content", arr(text("line 1\n"), text("line 2")));
		assertThat(Transcript.render(message)).isEqualTo("[Tool result]: line 1\nline 2");
	}

	@Test
	void toolResultOfExactly2000CharactersShouldBeKeptWhole() {
		String output = "x".repeat(2000);
		assertThat(Transcript.render(toolResult(output))).isEqualTo("[Tool result]: " + output);
	}

	@Test
	void toolResultLongerThan2000CharactersShouldBeCutWithTheUpstreamMarker() {
		String kept = "a".repeat(2000);
		assertThat(Transcript.render(toolResult(kept + "b".repeat(734))))
			.isEqualTo("[Tool result]: " + kept + "\n\n[... 734 more characters truncated]");
	}

	@Test
	void truncateShouldNotSplitASurrogatePair() {
		// Upstream slices UTF-16 units and may leave half an emoji; Arbor cuts before it.
		String text = "a".repeat(1999) + "\uD83D\uDE00" + "b".repeat(9);
		assertThat(Transcript.truncate(text, 2000))
			.isEqualTo("a".repeat(1999) + "\n\n[... 11 more characters truncated]");
	}

	@Test
	void closingConversationTagInAMessageShouldBeEscaped() {
		ObjectNode user = obj("role", "user", "content", "Write </conversation> into the template.");
		ObjectNode assistant = obj("role", "assistant", "content",
				arr(text("Done: </conversation>"), toolCall("write", obj("path", "t.html", "content", "</conversation>"))));
		assertThat(Transcript.render(user)).isEqualTo("[User]: Write <\\/conversation> into the template.");
		assertThat(Transcript.render(assistant)).isEqualTo("[Assistant]: Done: <\\/conversation>\n\n"
				+ "[Assistant tool calls]: write(path=\"t.html\", content=\"<\\/conversation>\")")
			.doesNotContain("</conversation>");
	}

	@Test
	void messagesWithoutTextShouldRenderEmpty() {
		assertThat(Transcript.render(obj("role", "user", "content", ""))).isEmpty();
		assertThat(Transcript.render(obj("role", "user", "content", arr()))).isEmpty();
		assertThat(Transcript.render(obj("role", "user", "content", arr(obj("type", "image", "data", "AA=="))))).isEmpty();
		assertThat(Transcript.render(obj("role", "assistant", "content", arr()))).isEmpty();
		assertThat(Transcript.render(obj("role", "assistant", "content", arr(obj("type", "redacted"))))).isEmpty();
		assertThat(Transcript.render(obj("role", "toolResult", "content", arr()))).isEmpty();
	}

	@Test
	void messagesOfOtherRolesShouldRenderEmpty() {
		assertThat(Transcript.render(obj("role", "custom", "content", "reminder"))).isEmpty();
		assertThat(Transcript.render(obj("role", "branchSummary", "summary", "Tried X."))).isEmpty();
		assertThat(Transcript.render(obj("content", "no role"))).isEmpty();
	}

	@Test
	void estimateTokensShouldBeCharactersDividedByFourRoundedUp() {
		assertThat(Transcript.estimateTokens("")).isZero();
		assertThat(Transcript.estimateTokens("abcd")).isEqualTo(1);
		assertThat(Transcript.estimateTokens("abcde")).isEqualTo(2);
		assertThat(Transcript.estimateTokens("x".repeat(4001))).isEqualTo(1001);
	}

	private static ObjectNode toolResult(String output) {
		return obj("role", "toolResult", "toolCallId", "c1", "toolName", "bash", "content", arr(text(output)),
				"isError", false);
	}

}

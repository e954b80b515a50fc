package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.Fixtures;
import dev.arbor.TestSessions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether an assistant message has nothing to read (docs/SESSION-FORMAT.md#the-selector-rows), noted by the load's
 * {@link LineScanner} as it checks the line ({@link ContentText}), agrees with the same rule applied to the message
 * as Jackson reads it.
 */
class ContentTextTests {

	@ParameterizedTest
	@ValueSource(strings = { """
			{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}}]}""",
			"""
			{"role":"assistant","content":[{"type":"text","text":"   "},{"type":"toolCall","name":"x"}]}""", """
			{"role":"assistant","content":[{"type":"text","text":"\\n\\t "}]}""", """
			{"role":"assistant","content":[{"type":"text","text":"\u3000\u2003"}]}""", """
			{"role":"assistant","content":[]}""", """
			{"role":"assistant","content":""}""", """
			{"role":"assistant","content":null}""", """
			{"role":"assistant"}""", """
			{"role":"assistant","content":[{"type":"thinking","thinking":"long thought"},{"type":"toolCall"}]}""", """
			{"role":"assistant","content":[{"text":"said","type":"image"}],"stopReason":"toolUse"}""", """
			{"role":"assistant","content":[{"type":"text","text":7}],"stopReason":"stop"}""", """
			{"role":"assistant","content":[],"stopReason":"error"}""", """
			{"role":"assistant","content":[],"stopReason":"aborted"}""", """
			{"role":"assistant","stopReason":"error","content":[],"stopReason":"stop"}""", """
			{"role":"assistant","stopReason":"\\u0061borted","content":[[1,{"a":[]}],"x",3,true]}""" })
	void isSilentAssistantWhenContentHasNoTextShouldFollowTheStopReason(String message) {
		assertAgreesWithJackson(message);
	}

	@ParameterizedTest
	@ValueSource(strings = { """
			{"role":"assistant","content":[{"type":"text","text":"Done."}]}""", """
			{"role":"assistant","content":[{"type":"toolCall","name":"x"},{"text":" ok ","type":"text"}]}""", """
			{"role":"assistant","content":[{"type":"text","text":"\\u00e9"}]}""", """
			{"role":"assistant","content":[{"type":"text","text":"\u3000é"}]}""", """
			{"role":"assistant","content":"plain text"}""", """
			{"content":[{"type":"t\\u0065xt","text":"escaped type"}],"role":"assistant","stopReason":"error"}""" })
	void isSilentAssistantWhenContentHasTextShouldSayItIsNotSilent(String message) {
		assertThat(silent(message)).isFalse();
		assertAgreesWithJackson(message);
	}

	@Test
	void isSilentAssistantWhenMessagesAreTheTestSessionsShouldAgreeWithJackson() {
		List<String> lines = new ArrayList<>();
		for (String session : List.of(TestSessions.PI_V1, TestSessions.OMP_V3)) {
			lines.addAll(TestSessions.lines(session));
		}
		assertThat(assertEveryAssistantAgrees(lines)).isGreaterThan(5);
	}

	@Test
	void isSilentAssistantWhenMessagesAreTheUpstreamFixturesShouldAgreeWithJackson() {
		List<String> lines = new ArrayList<>();
		for (String fixture : List.of(Fixtures.OMP_V3, Fixtures.PI_V1)) {
			lines.addAll(List.of(new String(Fixtures.bytes(fixture), StandardCharsets.UTF_8).split("\n")));
		}
		assertThat(assertEveryAssistantAgrees(lines)).isGreaterThan(100);
	}

	/** Checks every assistant message among the lines; returns how many there were. */
	private static int assertEveryAssistantAgrees(List<String> lines) {
		int assistants = 0;
		for (String line : lines) {
			if (line.isBlank()) {
				continue;
			}
			JsonNode message = Json.parseObject(line.getBytes(StandardCharsets.UTF_8)).get("message");
			if (message instanceof ObjectNode && "assistant".equals(Json.text(message, "role"))) {
				assertAgreesWithJackson(message.toString());
				assistants++;
			}
		}
		return assistants;
	}

	private static void assertAgreesWithJackson(String message) {
		assertThat(silent(message)).as(message).isEqualTo(silentAsJacksonReadsIt(message));
	}

	private static boolean silent(String message) {
		String line = "{\"type\":\"message\",\"id\":\"a1b2c3d4\",\"message\":" + message + "}";
		return EntryLine.of(line.getBytes(StandardCharsets.UTF_8)).isSilentAssistant();
	}

	/** The rule on a tree: no content text that is not blank, and not stopped by an error or an abort. */
	private static boolean silentAsJacksonReadsIt(String message) {
		ObjectNode node = Json.parseObject(message.getBytes(StandardCharsets.UTF_8));
		JsonNode content = node.get("content");
		if (content != null && content.isString() && !content.asString().isBlank()) {
			return false;
		}
		if (content != null && content.isArray()) {
			for (JsonNode block : content) {
				if (block.isObject() && "text".equals(Json.text(block, "type")) && block.get("text") != null
						&& block.get("text").isString() && !block.get("text").asString().isBlank()) {
					return false;
				}
			}
		}
		String stopReason = Json.text(node, "stopReason");
		return !"error".equals(stopReason) && !"aborted".equals(stopReason);
	}

}

package dev.arbor.web;

import dev.arbor.session.Json;
import org.springframework.test.web.servlet.client.RestTestClient;

/**
 * A session whose leaf is at the end of a branch worth summarizing: {@code u1 → a1}, then the branch {@code u2 →
 * a2 (read, edit) → tool result → a3 → u3 → a4 (write)}. Navigating to {@code a1} abandons everything after it.
 */
record AbandonedBranch(String sessionId, String a1, String u2, String toolResult, String a4) {

	static AbandonedBranch create(RestTestClient client) {
		String sessionId = ApiSessions.create(client);
		ApiSessions.appendUser(client, sessionId, "Look at the parser");
		String a1 = ApiSessions.appendAssistant(client, sessionId, "The parser lives in src/parser.ts.");
		String u2 = ApiSessions.appendUser(client, sessionId, "Try approach B: rewrite the tokenizer");
		toolCalls(client, sessionId, "I will read it first.", "read", "src/parser.ts", "edit", "src/parser.ts", "read",
				"docs/grammar.md");
		String toolResult = ApiSessions.append(client, sessionId, """
				{"type":"message","message":{"role":"toolResult","toolCallId":"call_1","toolName":"read",\
				"content":[{"type":"text","text":"SECRET TOOL OUTPUT export function parse() {}"}],"isError":false}}""")
			.get("id")
			.asString();
		ApiSessions.appendAssistant(client, sessionId, "Rewrote the tokenizer; tests fail with: Unexpected token at line 3");
		ApiSessions.appendUser(client, sessionId, "Also write tests");
		String a4 = toolCalls(client, sessionId, "Writing the tests.", "write", "test/parser.test.ts");
		return new AbandonedBranch(sessionId, a1, u2, toolResult, a4);
	}

	/** An assistant message with text and tool calls given as name, path pairs; returns its id. */
	static String toolCalls(RestTestClient client, String sessionId, String text, String... namesAndPaths) {
		StringBuilder content = new StringBuilder("[{\"type\":\"text\",\"text\":" + Json.quote(text) + "}");
		for (int i = 0; i < namesAndPaths.length; i += 2) {
			content.append(",{\"type\":\"toolCall\",\"id\":\"call_").append(i).append("\",\"name\":\"")
				.append(namesAndPaths[i]).append("\",\"arguments\":{\"path\":").append(Json.quote(namesAndPaths[i + 1]))
				.append("}}");
		}
		content.append(']');
		return ApiSessions.append(client, sessionId, "{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"content\":"
				+ content + ",\"provider\":\"openai\",\"model\":\"gpt-4o\",\"stopReason\":\"toolUse\"}}")
			.get("id")
			.asString();
	}

}

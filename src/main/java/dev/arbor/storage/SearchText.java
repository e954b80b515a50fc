package dev.arbor.storage;

import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What one entry contributes to search, and under which role (docs/API.md#search): a message its text blocks (or
 * string content), an assistant's tool calls (name and arguments), a tool result its tool's name and content, a bash
 * execution its command and output, under the message's own {@code role}; a {@code branch_summary}, a
 * {@code compaction} and a {@code custom_message} their summary or content, under {@code branchSummary},
 * {@code compaction} and {@code customMessage}; a {@code label} its label, under {@code label}. Thinking, model and
 * other bookkeeping entries contribute nothing. The text is cut after {@value #MAX_CHARS} characters, in both stores
 * alike, so that one huge tool result stays one ordinary document.
 *
 * @param role the role a search filters on
 * @param text what is searched and what the snippet is cut from
 */
public record SearchText(String role, String text) {

	/** The most of an entry's text that is indexed. */
	public static final int MAX_CHARS = 32_768;

	public static final String BRANCH_SUMMARY = "branchSummary";

	public static final String COMPACTION = "compaction";

	public static final String CUSTOM_MESSAGE = "customMessage";

	public static final String LABEL = "label";

	/** What the entry contributes, or {@code null} when nothing (no text, or a type search leaves out). */
	public static @Nullable SearchText of(EntryLine entry) {
		String type = entry.type();
		if (!(EntryTypes.MESSAGE.equals(type) || EntryTypes.BRANCH_SUMMARY.equals(type)
				|| EntryTypes.COMPACTION.equals(type) || EntryTypes.CUSTOM_MESSAGE.equals(type)
				|| EntryTypes.LABEL.equals(type))) {
			return null;
		}
		JsonNode node;
		try {
			node = entry.toNode();
		}
		catch (RuntimeException ex) {
			return null; // validated on load; a line that does not parse has nothing to search
		}
		StringBuilder text = new StringBuilder();
		String role;
		switch (type) {
			case EntryTypes.MESSAGE -> {
				JsonNode message = node.get("message");
				if (message == null || !message.isObject()) {
					return null;
				}
				role = Json.text(message, "role");
				if (role == null || role.isBlank()) {
					return null;
				}
				add(text, Json.text(message, "toolName"));
				add(text, Json.text(message, "command"));
				content(text, message.get("content"));
				add(text, Json.text(message, "output"));
			}
			case EntryTypes.BRANCH_SUMMARY -> {
				role = BRANCH_SUMMARY;
				add(text, Json.text(node, "summary"));
			}
			case EntryTypes.COMPACTION -> {
				role = COMPACTION;
				add(text, Json.text(node, "summary"));
			}
			case EntryTypes.CUSTOM_MESSAGE -> {
				role = CUSTOM_MESSAGE;
				content(text, node.get("content"));
			}
			default -> {
				role = LABEL;
				add(text, Json.text(node, "label"));
			}
		}
		String all = cut(text.toString());
		return all.isBlank() ? null : new SearchText(role, all);
	}

	private static void content(StringBuilder text, @Nullable JsonNode content) {
		if (content == null) {
			return;
		}
		if (content.isString()) {
			add(text, content.asString());
			return;
		}
		if (!content.isArray()) {
			return;
		}
		for (JsonNode block : content) {
			if (!block.isObject() || text.length() >= MAX_CHARS) {
				continue;
			}
			String blockType = Json.text(block, "type");
			if ("text".equals(blockType)) {
				add(text, Json.text(block, "text"));
			}
			else if ("toolCall".equals(blockType)) {
				add(text, Json.text(block, "name"));
				JsonNode arguments = block.get("arguments");
				if (arguments != null && !arguments.isNull()) {
					add(text, arguments.isString() ? arguments.asString() : Json.toString(arguments));
				}
			}
		}
	}

	private static void add(StringBuilder text, @Nullable String part) {
		if (part == null || part.isBlank() || text.length() >= MAX_CHARS) {
			return;
		}
		if (text.length() > 0) {
			text.append('\n');
		}
		text.append(part, 0, Math.min(part.length(), MAX_CHARS - text.length() + 1));
	}

	private static String cut(String text) {
		if (text.length() <= MAX_CHARS) {
			return text;
		}
		int end = Character.isHighSurrogate(text.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
		return text.substring(0, end);
	}

	/** The roles of entries that are not messages, for the documentation and validation of filters. */
	public static List<String> entryRoles() {
		return List.of(BRANCH_SUMMARY, COMPACTION, CUSTOM_MESSAGE, LABEL);
	}

}

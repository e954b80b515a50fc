package dev.arbor.session;

import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * What a {@code message} entry's message must be to be appended (docs/SESSION-FORMAT.md#messages-on-append): a role
 * the agents write, and the content that role carries, in the shapes the agents read. A message the agents could not
 * read (a role none of them writes, no content, content that is a number) is refused with the field at fault, rather
 * than stored for every reader to trip over; what the shapes leave open (other fields, block types of their own) is
 * stored as sent.
 */
final class MessageShapes {

	/** The roles pi and oh-my-pi write, in the order docs/SESSION-FORMAT.md lists them. */
	static final List<String> ROLES = List.of("user", "assistant", "toolResult", "bashExecution", "custom",
			"branchSummary", "compactionSummary", "developer", "system");

	private MessageShapes() {
	}

	static void check(JsonNode message) {
		JsonNode roleNode = message.get("role");
		if (roleNode == null || !roleNode.isString()) {
			throw new InvalidEntryException("message.role", "message.role must be a string: one of " + roles());
		}
		String role = roleNode.asString();
		switch (role) {
			case "user", "assistant", "developer", "system" -> content(message);
			case "toolResult" -> {
				string(message, "toolCallId", "the id of the tool call it answers");
				optionalString(message, "toolName");
				content(message);
				optionalBoolean(message, "isError");
			}
			case "bashExecution" -> {
				string(message, "command", "the command that ran");
				string(message, "output", "what it printed");
				optionalBoolean(message, "cancelled");
				optionalBoolean(message, "truncated");
			}
			case "custom" -> {
				string(message, "customType", "the extension's message type");
				content(message);
				optionalBoolean(message, "display");
			}
			case "branchSummary", "compactionSummary" -> string(message, "summary", "the summary's text");
			default -> throw new InvalidEntryException("message.role",
					"message.role '" + abbreviate(role) + "' is not a message role: one of " + roles());
		}
	}

	/** A string, or an array of content blocks: objects with a string {@code type}, the known ones with their fields. */
	private static void content(JsonNode message) {
		JsonNode content = message.get("content");
		if (content != null && content.isString()) {
			return;
		}
		if (content == null || !content.isArray()) {
			throw new InvalidEntryException("message.content", "message.content must be a string or an array of "
					+ "content blocks, such as [{\"type\": \"text\", \"text\": \"…\"}]");
		}
		for (int i = 0; i < content.size(); i++) {
			block(content.get(i), "message.content[" + i + "]");
		}
	}

	private static void block(JsonNode block, String path) {
		JsonNode type = (block != null && block.isObject()) ? block.get("type") : null;
		if (type == null || !type.isString()) {
			throw new InvalidEntryException(path, path + " must be a content block: an object with a string type "
					+ "(text, image, thinking, toolCall)");
		}
		switch (type.asString()) {
			case "text" -> blockString(block, path, "text");
			case "image" -> {
				blockString(block, path, "data");
				blockString(block, path, "mimeType");
			}
			case "thinking" -> blockString(block, path, "thinking");
			case "toolCall" -> {
				blockString(block, path, "id");
				blockString(block, path, "name");
				JsonNode arguments = block.get("arguments");
				if (arguments != null && !arguments.isObject()) {
					throw new InvalidEntryException(path + ".arguments", path + ".arguments must be an object");
				}
			}
			default -> {
				// a block type of an agent's own: kept as sent, as the format keeps entry types it does not know
			}
		}
	}

	private static void blockString(JsonNode block, String path, String field) {
		JsonNode value = block.get(field);
		if (value == null || !value.isString()) {
			throw new InvalidEntryException(path + "." + field,
					path + "." + field + " must be a string in a " + block.get("type").asString() + " block");
		}
	}

	private static void string(JsonNode message, String field, String what) {
		JsonNode value = message.get(field);
		if (value == null || !value.isString()) {
			throw new InvalidEntryException("message." + field, "message." + field + " must be a string: " + what
					+ " (a " + message.get("role").asString() + " message)");
		}
	}

	private static void optionalString(JsonNode message, String field) {
		JsonNode value = message.get(field);
		if (value != null && !value.isString()) {
			throw new InvalidEntryException("message." + field, "message." + field + " must be a string");
		}
	}

	private static void optionalBoolean(JsonNode message, String field) {
		JsonNode value = message.get(field);
		if (value != null && !value.isBoolean()) {
			throw new InvalidEntryException("message." + field, "message." + field + " must be true or false");
		}
	}

	private static String roles() {
		return String.join(", ", ROLES);
	}

	private static String abbreviate(String value) {
		return (value.length() <= 40) ? value : value.substring(0, 40) + "…";
	}

}

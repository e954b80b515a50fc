package dev.arbor.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * How a tool result's row names the call it answers, as upstream's tree selector writes it
 * ({@code TreeList.formatToolCall}, docs/SESSION-FORMAT.md#the-selector-rows): {@code [read: path:from-to]},
 * {@code [bash: command]} and so on for the built-in tools, the name and the arguments' JSON for any other.
 * Upstream writes a path under its user's home folder as {@code ~/…}; Arbor does not know that folder, so it
 * writes every path as the call gave it.
 */
final class ToolCallText {

	private static final int COMMAND_LIMIT = 50;

	private static final int ARGUMENTS_LIMIT = 40;

	private ToolCallText() {
	}

	/**
	 * The {@code toolCall} block a tool result answers: looked for in the nearest assistant message above the result,
	 * which made the calls its results follow. Upstream looks in a map of every call in the tree, which finds the
	 * same call unless two share an id (some providers number their calls {@code call_0}, {@code call_1} in every
	 * turn); there upstream names the last one in its order, Arbor the one the result answers.
	 *
	 * @param position the tool result's position in the tree
	 */
	static @Nullable JsonNode callOf(SessionTree tree, FlatOrder flat, int position, String toolCallId) {
		for (int p = flat.parent[position]; p != FlatOrder.NONE; p = flat.parent[p]) {
			EntryLine entry = tree.at(p);
			if (entry.isType(EntryTypes.MESSAGE) && "assistant".equals(entry.messageRole())) {
				JsonNode content = entry.toNode().path("message").path("content");
				for (JsonNode block : content) {
					if ("toolCall".equals(Json.text(block, "type")) && toolCallId.equals(Json.text(block, "id"))) {
						return block;
					}
				}
				return null;
			}
		}
		return null;
	}

	/**
	 * @param name the call's {@code name}
	 * @param arguments the call's {@code arguments}; anything but an object reads as one without members
	 */
	static String of(String name, @Nullable JsonNode arguments) {
		JsonNode args = (arguments != null && arguments.isObject()) ? arguments : JsonNodeFactory.instance.objectNode();
		return switch (name) {
			case "read" -> "[read: " + path(args) + lines(args) + "]";
			case "write" -> "[write: " + path(args) + "]";
			case "edit" -> "[edit: " + path(args) + "]";
			case "bash" -> {
				String command = or(args.get("command"), "");
				String shown = MessageText.cut(PiText.trim(command.replace('\n', ' ').replace('\t', ' ')), COMMAND_LIMIT);
				yield "[bash: " + shown + ((command.length() > COMMAND_LIMIT) ? "..." : "") + "]";
			}
			case "grep" -> "[grep: /" + or(args.get("pattern"), "") + "/ in " + or(args.get("path"), ".") + "]";
			case "find" -> "[find: " + or(args.get("pattern"), "") + " in " + or(args.get("path"), ".") + "]";
			case "ls" -> "[ls: " + or(args.get("path"), ".") + "]";
			default -> {
				String json = PiText.stringify(args);
				yield "[" + name + ": " + MessageText.cut(json, ARGUMENTS_LIMIT)
						+ ((json.length() > ARGUMENTS_LIMIT) ? "..." : "") + "]";
			}
		};
	}

	/** {@code path}, else {@code file_path}: what upstream's read, write and edit take. */
	private static String path(JsonNode args) {
		JsonNode path = PiText.truthy(args.get("path")) ? args.get("path") : args.get("file_path");
		return or(path, "");
	}

	/**
	 * {@code :offset-end} when the read has an offset or a limit: the offset defaults to 1, the end is
	 * {@code offset + limit - 1} and is left out when there is no limit or it comes to 0.
	 */
	private static String lines(JsonNode args) {
		JsonNode offset = args.get("offset");
		JsonNode limit = args.get("limit");
		if (offset == null && limit == null) {
			return "";
		}
		// offset ?? 1 takes a null offset as 1; a null limit adds 0.
		double start = (offset == null || offset.isNull()) ? 1 : numeric(offset);
		String startText = (offset == null || offset.isNull()) ? "1" : PiText.string(offset);
		if (limit == null) {
			return ":" + startText;
		}
		double end = start + (limit.isNull() ? 0 : numeric(limit)) - 1;
		boolean shown = end != 0 && !Double.isNaN(end);
		return ":" + startText + (shown ? "-" + PiText.number(end) : "");
	}

	/** A number as JavaScript's arithmetic takes it; anything but a number is NaN here. */
	private static double numeric(JsonNode value) {
		return value.isNumber() ? value.asDouble() : Double.NaN;
	}

	/** {@code String(value || fallback)}. */
	private static String or(@Nullable JsonNode value, String fallback) {
		return PiText.truthy(value) ? PiText.string(value) : fallback;
	}

}

package dev.arbor.summary;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The files an abandoned branch read and modified (docs/SESSION-FORMAT.md#navigation): the {@code path} arguments of
 * its {@code read}, {@code write} and {@code edit} tool calls, and the files of the branch summaries it contains, so
 * that a summary of a summary still knows them. A file both read and modified counts as modified.
 */
final class FileOperations {

	private final Set<String> read = new TreeSet<>();

	private final Set<String> modified = new TreeSet<>();

	private FileOperations() {
	}

	/**
	 * The files of every abandoned entry, whether or not its message fits the model's budget. Summaries a hook
	 * wrote ({@code fromExtension}, upstream's {@code fromHook}) are skipped: their details need not list files.
	 */
	static FileOperations of(List<EntryLine> entries) {
		FileOperations files = new FileOperations();
		for (EntryLine entry : entries) {
			if (entry.isType(EntryTypes.MESSAGE) && "assistant".equals(entry.messageRole())) {
				files.addToolCalls(entry.messageNode().get("content"));
			}
			else if (entry.isType(EntryTypes.BRANCH_SUMMARY)) {
				files.addSummaryDetails(entry.toNode());
			}
		}
		files.read.removeAll(files.modified);
		return files;
	}

	private void addToolCalls(JsonNode content) {
		if (content == null || !content.isArray()) {
			return;
		}
		for (JsonNode block : content) {
			JsonNode arguments = block.get("arguments");
			if (!"toolCall".equals(block.path("type").asString(null)) || arguments == null) {
				continue;
			}
			JsonNode path = arguments.get("path");
			if (path == null || !path.isString() || path.asString().isEmpty()) {
				continue;
			}
			switch (block.path("name").asString("")) {
				case "read" -> this.read.add(path.asString());
				case "write", "edit" -> this.modified.add(path.asString());
				default -> {
				}
			}
		}
	}

	private void addSummaryDetails(ObjectNode summary) {
		if (summary.path("fromExtension").asBoolean(false) || summary.path("fromHook").asBoolean(false)) {
			return;
		}
		JsonNode details = summary.get("details");
		if (details != null && details.isObject()) {
			addStrings(details.get("readFiles"), this.read);
			addStrings(details.get("modifiedFiles"), this.modified);
		}
	}

	private static void addStrings(JsonNode array, Set<String> into) {
		if (array != null && array.isArray()) {
			for (JsonNode file : array) {
				if (file.isString()) {
					into.add(file.asString());
				}
			}
		}
	}

	/** Files only read, sorted. */
	List<String> readFiles() {
		return List.copyOf(this.read);
	}

	/** Files written or edited, sorted. */
	List<String> modifiedFiles() {
		return List.copyOf(this.modified);
	}

	/** The {@code branch_summary} entry's {@code details}: {@code {readFiles, modifiedFiles}}. */
	ObjectNode details() {
		ObjectNode details = Json.newObject();
		ArrayNode readFiles = details.putArray("readFiles");
		this.read.forEach(readFiles::add);
		ArrayNode modifiedFiles = details.putArray("modifiedFiles");
		this.modified.forEach(modifiedFiles::add);
		return details;
	}

	/**
	 * The files block that ends a stored summary, in upstream's tags ({@code <read-files>},
	 * {@code <modified-files>}); empty when no file was touched.
	 */
	String block() {
		StringBuilder block = new StringBuilder();
		section(block, "read-files", this.read);
		section(block, "modified-files", this.modified);
		return block.toString();
	}

	private static void section(StringBuilder block, String tag, Set<String> files) {
		if (!files.isEmpty()) {
			block.append("\n\n<").append(tag).append(">\n").append(String.join("\n", files)).append("\n</")
				.append(tag).append('>');
		}
	}

}

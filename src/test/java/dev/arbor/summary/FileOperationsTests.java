package dev.arbor.summary;

import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;

import static dev.arbor.summary.BranchEntries.arr;
import static dev.arbor.summary.BranchEntries.assistant;
import static dev.arbor.summary.BranchEntries.branchSummary;
import static dev.arbor.summary.BranchEntries.entry;
import static dev.arbor.summary.BranchEntries.fileCall;
import static dev.arbor.summary.BranchEntries.message;
import static dev.arbor.summary.BranchEntries.obj;
import static dev.arbor.summary.BranchEntries.text;
import static dev.arbor.summary.BranchEntries.toolCall;
import static dev.arbor.summary.BranchEntries.toolResult;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The files of an abandoned branch (docs/SESSION-FORMAT.md#navigation), as upstream's
 * {@code extractFileOpsFromMessage}, {@code computeFileLists} and {@code formatFileOperations} find and write them
 * (pi-coding-agent {@code core/compaction/utils.js}), with the details of earlier branch summaries merged as
 * {@code prepareBranchEntries} does.
 */
class FileOperationsTests {

	@Test
	void readWriteAndEditCallsShouldGiveTheirPaths() {
		FileOperations files = FileOperations.of(List.of(assistant("a1", text("Reading."), fileCall("read", "src/a.ts")),
				assistant("a2", fileCall("write", "src/b.ts"), fileCall("edit", "src/c.ts"))));
		assertThat(files.readFiles()).containsExactly("src/a.ts");
		assertThat(files.modifiedFiles()).containsExactly("src/b.ts", "src/c.ts");
	}

	@Test
	void otherToolsOtherArgumentNamesAndOtherRolesShouldBeIgnored() {
		FileOperations files = FileOperations.of(List.of(
				assistant("a1", toolCall("bash", obj("command", "cat src/a.ts", "path", "src/bash.ts")),
						toolCall("grep", obj("pattern", "x", "path", "src/grep.ts")),
						toolCall("read", obj("file_path", "src/file_path.ts")),
						toolCall("edit", obj("filePath", "src/filePath.ts")), toolCall("Read", obj("path", "src/Read.ts")),
						obj("type", "toolUse", "name", "read", "arguments", obj("path", "src/toolUse.ts"))),
				message("u1", obj("role", "user", "content", arr(fileCall("read", "src/user.ts")))),
				message("t1", obj("role", "toolResult", "toolCallId", "c", "content", arr(fileCall("edit", "src/tool.ts")))),
				toolResult("t2", "read(path=\"src/text.ts\")")));
		assertThat(files.readFiles()).isEmpty();
		assertThat(files.modifiedFiles()).isEmpty();
	}

	@Test
	void pathsThatAreNotNonEmptyStringsShouldBeIgnored() {
		FileOperations files = FileOperations.of(List.of(assistant("a1", fileCall("read", 42), fileCall("read", true),
				fileCall("write", arr("src/a.ts")), fileCall("edit", obj("path", "src/b.ts")), fileCall("edit", null),
				fileCall("read", ""), toolCall("read", obj()), obj("type", "toolCall", "name", "read"),
				obj("type", "toolCall", "name", "read", "arguments", "src/c.ts"))));
		assertThat(files.readFiles()).isEmpty();
		assertThat(files.modifiedFiles()).isEmpty();
	}

	@Test
	void aFileReadAndModifiedShouldOnlyBeAModifiedFileInEitherOrder() {
		FileOperations files = FileOperations.of(List.of(assistant("a1", fileCall("read", "src/a.ts")),
				assistant("a2", fileCall("edit", "src/a.ts"), fileCall("write", "src/b.ts")),
				assistant("a3", fileCall("read", "src/b.ts"), fileCall("read", "src/c.ts"))));
		assertThat(files.readFiles()).containsExactly("src/c.ts");
		assertThat(files.modifiedFiles()).containsExactly("src/a.ts", "src/b.ts");
	}

	@Test
	void filesOfEarlierBranchSummariesShouldBeMergedButNotThoseOfHooks() {
		FileOperations files = FileOperations.of(List.of(
				branchSummary("b1", "Earlier.", "details",
						obj("readFiles", arr("docs/old.md", "src/later-edited.ts"), "modifiedFiles", arr("src/old.ts"))),
				branchSummary("b2", "From a hook.", "details",
						obj("readFiles", arr("ext-read.md"), "modifiedFiles", arr("ext-modified.ts")), "fromExtension", true),
				branchSummary("b3", "From an old hook.", "details",
						obj("readFiles", arr("hook-read.md"), "modifiedFiles", arr("hook-modified.ts")), "fromHook", true),
				branchSummary("b4", "Odd details.", "details", arr("src/array.ts")),
				entry("compaction", "co", "summary", "Compacted.", "firstKeptEntryId", "b1", "tokensBefore", 10, "details",
						obj("readFiles", arr("compaction-read.md"), "modifiedFiles", arr("compaction-modified.ts"))),
				assistant("a1", fileCall("edit", "src/later-edited.ts"))));
		assertThat(files.readFiles()).containsExactly("docs/old.md");
		assertThat(files.modifiedFiles()).containsExactly("src/later-edited.ts", "src/old.ts");
	}

	@Test
	void filesShouldBeSortedByTheirCharactersAndListedOnce() {
		FileOperations files = FileOperations.of(List.of(
				assistant("a1", fileCall("read", "z.ts"), fileCall("read", "a.ts"), fileCall("read", "B.ts")),
				assistant("a2", fileCall("read", "a.ts"), fileCall("read", "a/b.ts"), fileCall("edit", "y.ts"),
						fileCall("write", "c.ts"), fileCall("edit", "c.ts"))));
		// JavaScript's default sort compares UTF-16 units, as String.compareTo does: upper case first.
		assertThat(files.readFiles()).containsExactly("B.ts", "a.ts", "a/b.ts", "z.ts");
		assertThat(files.modifiedFiles()).containsExactly("c.ts", "y.ts");
	}

	@Test
	void blockShouldListReadThenModifiedFilesInUpstreamTags() {
		FileOperations files = FileOperations.of(List.of(
				assistant("a1", fileCall("read", "b.ts"), fileCall("read", "a.ts"), fileCall("edit", "c.ts"))));
		assertThat(files.block())
			.isEqualTo("\n\n<read-files>\na.ts\nb.ts\n</read-files>\n\n<modified-files>\nc.ts\n</modified-files>");
	}

	@Test
	void blockWithOnlyOneKindShouldHoldOnlyItsSection() {
		assertThat(FileOperations.of(List.of(assistant("a1", fileCall("read", "a.ts")))).block())
			.isEqualTo("\n\n<read-files>\na.ts\n</read-files>");
		assertThat(FileOperations.of(List.of(assistant("a1", fileCall("write", "b.ts")))).block())
			.isEqualTo("\n\n<modified-files>\nb.ts\n</modified-files>");
	}

	@Test
	void blockWithoutFilesShouldBeEmpty() {
		assertThat(FileOperations.of(List.of()).block()).isEmpty();
		assertThat(FileOperations.of(List.of(assistant("a1", text("No tools.")))).block()).isEmpty();
	}

	@Test
	void detailsShouldBeTheSortedListsAsJson() {
		FileOperations files = FileOperations.of(List.of(
				assistant("a1", fileCall("read", "src/z.ts"), fileCall("read", "src/a.ts"), fileCall("write", "out.txt"))));
		assertThat(Json.toString(files.details()))
			.isEqualTo("{\"readFiles\":[\"src/a.ts\",\"src/z.ts\"],\"modifiedFiles\":[\"out.txt\"]}");
		assertThat(Json.toString(FileOperations.of(List.<EntryLine>of()).details()))
			.isEqualTo("{\"readFiles\":[],\"modifiedFiles\":[]}");
	}

}

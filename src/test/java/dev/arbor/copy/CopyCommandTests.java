package dev.arbor.copy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.arbor.ArborApplication;
import dev.arbor.TestSessions;
import dev.arbor.session.Json;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.postgres.PostgresSessionStore;
import dev.arbor.storage.postgres.RequiresPostgres;
import dev.arbor.storage.postgres.TestDatabases;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The copy command between a real folder and a real PostgreSQL, run as {@code ArborApplication.main} runs it
 * ({@link CopyCommand#run}), and once through {@code main} itself, in a JVM of its own. The sessions: the project's
 * version-2 session ({@link TestSessions#PI_V2}, as pi wrote it: migrated by every read), its version-3 session with its leaf moved into a
 * branch it left (so not at its last entry), and the project's version-1 session imported under a new id with its leaf
 * reset (before the first entry).
 */
@RequiresPostgres
@ExtendWith(OutputCaptureExtension.class)
class CopyCommandTests {

	/** An entry of the given-up README branch of {@link TestSessions#OMP_V3}: not its last entry. */
	private static final String BRANCH_ENTRY = "4af4f4ce";

	/** Entries of {@link TestSessions#PI_V2}. */
	private static final int V2_ENTRIES = 19;

	/** What the file store says of {@code notes.jsonl}, a file of text that the tests put beside the sessions. */
	private static final String NOT_A_SESSION = "the first record is not a session header with a string id";

	private static final Pattern REPORT_LINE = Pattern.compile("(copied|unchanged|differs|failed|unreadable) .*|Copied from .*");

	@TempDir
	Path temp;

	private Path folder;

	private TestDatabases.Database database;

	@BeforeEach
	void createFolderAndDatabase() throws IOException {
		this.folder = Files.createDirectory(this.temp.resolve("sessions"));
		this.database = TestDatabases.create();
	}

	@Test
	void copyFromFolderToPostgresShouldGiveEverySessionTheSameExportAndLeaf(CapturedOutput output) {
		Sessions sessions = sessionsInFolder();
		Map<String, String> folderBefore = TestStores.files(this.folder);
		CopyRun run = copy(output, this.folder, "--from=file", "--to=postgres");
		assertThat(run.exitCode()).isEqualTo(CopyCommand.EXIT_DONE);
		assertThat(run.lines()).containsExactlyElementsOf(sessions.copiedLines(
				"Copied from file to postgres: 3 copied, 0 unchanged, 0 differing, 0 failed, 0 unreadable"));
		assertThat(TestStores.files(this.folder)).as("the source is only read").isEqualTo(folderBefore);
		assertSameExports(this.folder, sessions);
		assertThat(TestStores.eventTypes(this.database)).as("announced as a replica's writes are")
			.containsExactlyInAnyOrder("SESSION_CREATED", "SESSION_CREATED", "SESSION_CREATED", "LEAF_CHANGED",
					"LEAF_CHANGED");
	}

	@Test
	void copyFromPostgresToFolderShouldWriteEachSessionAsItsExport(CapturedOutput output) {
		Map<String, Integer> entries = new TreeMap<>();
		try (PostgresSessionStore store = TestStores.database(this.database)) {
			// version 2, migrated on import
			entries.put(store.importSession(TestSessions.bytes(TestSessions.PI_V2), false).id(), V2_ENTRIES);
			entries.put(store.importSession(TestSessions.bytes(TestSessions.OMP_V3), false).id(), 132);
			store.moveLeaf(TestSessions.SESSION_ID, ExpectedLeaf.ANY, BRANCH_ENTRY);
			entries.put(store.create("/home/dana/src/quillmark", "nothing yet", null).id(), 0);
		}
		Path newFolder = this.temp.resolve("copied");
		CopyRun run = copy(output, newFolder, "--from=postgres", "--to=file");
		assertThat(run.exitCode()).isEqualTo(CopyCommand.EXIT_DONE);
		List<String> expected = new ArrayList<>();
		entries.forEach((id, count) -> expected.add("copied     " + id + ": " + count + " entries"));
		expected.add("Copied from postgres to file: 3 copied, 0 unchanged, 0 differing, 0 failed, 0 unreadable");
		assertThat(run.lines()).containsExactlyElementsOf(expected);
		try (FileSessionStore files = TestStores.folder(newFolder);
				PostgresSessionStore database = TestStores.database(this.database)) {
			for (String id : entries.keySet()) {
				TestStores.Exported export = TestStores.export(database, id);
				assertThat(TestStores.export(files, id)).as(id).isEqualTo(export);
				assertThat(read(files.get(id).file())).as("the file of " + id + " is its export").isEqualTo(export.file());
			}
			assertThat(files.get(TestSessions.SESSION_ID).leafId()).isEqualTo(BRANCH_ENTRY);
		}
	}

	@Test
	void copyAgainShouldReportEverySessionUnchangedAndWriteNothing(CapturedOutput output) {
		Sessions sessions = sessionsInFolder();
		assertThat(copy(output, this.folder, "--from=file", "--to=postgres").exitCode()).isEqualTo(CopyCommand.EXIT_DONE);
		List<String> rows = TestStores.rows(this.database);
		CopyRun again = copy(output, this.folder, "--from=file", "--to=postgres");
		assertThat(again.exitCode()).isEqualTo(CopyCommand.EXIT_DONE);
		assertThat(again.lines()).containsExactlyElementsOf(sessions.unchangedLines(
				"Copied from file to postgres: 0 copied, 3 unchanged, 0 differing, 0 failed, 0 unreadable"));
		assertThat(TestStores.rows(this.database)).as("no row written, no event").isEqualTo(rows);

		Path back = this.temp.resolve("back");
		assertThat(copy(output, back, "--from=postgres", "--to=file").exitCode()).isEqualTo(CopyCommand.EXIT_DONE);
		assertSameExports(back, sessions);
		Map<String, String> files = TestStores.files(back);
		CopyRun backAgain = copy(output, back, "--from=postgres", "--to=file");
		assertThat(backAgain.exitCode()).isEqualTo(CopyCommand.EXIT_DONE);
		assertThat(backAgain.lines()).containsExactlyElementsOf(sessions.unchangedLines(
				"Copied from postgres to file: 0 copied, 3 unchanged, 0 differing, 0 failed, 0 unreadable"));
		assertThat(TestStores.files(back)).as("no file written").isEqualTo(files);
	}

	@Test
	void copyWhenTheTargetHoldsOtherContentOrLeafShouldReportItDiffersAndLeaveItAlone(CapturedOutput output) {
		Sessions sessions = sessionsInFolder();
		String otherLeaf;
		try (PostgresSessionStore store = TestStores.database(this.database)) {
			store.importSession(TestSessions.bytes(TestSessions.OMP_V3), false);
			store.append(TestSessions.SESSION_ID, ExpectedLeaf.ANY, List.of(Json.parseObject(
					"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"Only in the database\"}}"
						.getBytes(StandardCharsets.UTF_8))));
			store.importSession(TestSessions.bytes(TestSessions.PI_V2), false);
			otherLeaf = store.read(sessions.v2Id(), tree -> tree.getEntries().get(10).id());
			store.moveLeaf(sessions.v2Id(), ExpectedLeaf.ANY, otherLeaf);
		}
		TestStores.Exported changed;
		TestStores.Exported moved;
		try (PostgresSessionStore store = TestStores.database(this.database)) {
			changed = TestStores.export(store, TestSessions.SESSION_ID);
			moved = TestStores.export(store, sessions.v2Id());
		}
		CopyRun run = copy(output, this.folder, "--from=file", "--to=postgres");
		assertThat(run.exitCode()).isEqualTo(CopyCommand.EXIT_INCOMPLETE);
		String v2Leaf;
		try (FileSessionStore files = TestStores.folder(this.folder)) {
			v2Leaf = files.get(sessions.v2Id()).leafId();
		}
		assertThat(run.lines()).containsExactly("copied     " + sessions.resetId() + ": 49 entries",
				"differs    " + TestSessions.SESSION_ID
						+ ": line 135 of its export is not the source's (133 entries here, 132 in the source)",
				"differs    " + sessions.v2Id() + ": its leaf is " + otherLeaf + ", the source's " + v2Leaf,
				"Copied from file to postgres: 1 copied, 0 unchanged, 2 differing, 0 failed, 0 unreadable");
		try (PostgresSessionStore store = TestStores.database(this.database)) {
			assertThat(TestStores.export(store, TestSessions.SESSION_ID)).isEqualTo(changed);
			assertThat(TestStores.export(store, sessions.v2Id())).isEqualTo(moved);
		}
	}

	@Test
	void copyWhenTheFolderHoldsUnreadableOrDamagedFilesShouldReportThemAsFailures(CapturedOutput output)
			throws IOException {
		TestSessions.copy(TestSessions.OMP_V3, this.folder);
		Files.writeString(this.folder.resolve("notes.jsonl"), "These are my notes, not a session.\n");
		// The version-2 file with a line cut short after its header and first four entries
		String v2 = new String(TestSessions.bytes(TestSessions.PI_V2), StandardCharsets.UTF_8);
		List<String> lines = new ArrayList<>(List.of(v2.split("\n", -1)));
		lines.add(5, "{\"type\":\"message\",\"id\":\"cut");
		Path damaged = Files.writeString(this.folder.resolve("damaged.jsonl"), String.join("\n", lines));
		Map<String, String> folderBefore = TestStores.files(this.folder);
		String v2Id = TestSessions.PI_V2_SESSION_ID;

		CopyRun run = copy(output, this.folder, "--from=file", "--to=postgres");
		assertThat(run.exitCode()).isEqualTo(CopyCommand.EXIT_INCOMPLETE);
		assertThat(run.lines()).containsExactly("copied     " + TestSessions.SESSION_ID + ": 132 entries",
				"failed     " + v2Id
						+ ": 1 malformed line in the source would be left out (--skip-malformed-lines copies without them)",
				"unreadable notes.jsonl: " + NOT_A_SESSION,
				"Copied from file to postgres: 1 copied, 0 unchanged, 0 differing, 1 failed, 1 unreadable");
		try (PostgresSessionStore store = TestStores.database(this.database)) {
			assertThat(store.list()).extracting(SessionInfo::id).containsExactly(TestSessions.SESSION_ID);
		}

		CopyRun skipping = copy(output, this.folder, "--from=file", "--to=postgres", "--skip-malformed-lines");
		assertThat(skipping.exitCode()).as("notes.jsonl is still unreadable").isEqualTo(CopyCommand.EXIT_INCOMPLETE);
		assertThat(skipping.lines()).containsExactly("unchanged  " + TestSessions.SESSION_ID,
				"copied     " + v2Id + ": " + V2_ENTRIES + " entries, 1 malformed line left out",
				"unreadable notes.jsonl: " + NOT_A_SESSION,
				"Copied from file to postgres: 1 copied, 1 unchanged, 0 differing, 0 failed, 1 unreadable");
		try (FileSessionStore files = TestStores.folder(this.folder);
				PostgresSessionStore database = TestStores.database(this.database)) {
			assertThat(TestStores.export(database, v2Id)).isEqualTo(TestStores.export(files, v2Id));
		}
		assertThat(TestStores.files(this.folder)).as("the source is only read, damaged or not").isEqualTo(folderBefore);
		assertThat(damaged).hasContent(String.join("\n", lines));
	}

	@Test
	void copyFromAFolderThatDoesNotExistShouldNotRunNorCreateIt(CapturedOutput output) {
		Path missing = this.temp.resolve("sesions");
		CopyRun run = copy(output, missing, "--from=file", "--to=postgres");
		assertThat(run.exitCode()).isEqualTo(CopyCommand.EXIT_NOT_RUN);
		assertThat(run.lines()).isEmpty();
		assertThat(output.getErr()).contains("No folder " + missing + " to copy from (arbor.storage.dir)");
		assertThat(missing).doesNotExist();
	}

	@Test
	void mainWithCopyShouldRunTheCommandInsteadOfTheServerAndExitWithItsCode() throws Exception {
		TestSessions.copy(TestSessions.OMP_V3, this.folder);
		Files.writeString(this.folder.resolve("notes.jsonl"), "These are my notes, not a session.\n");
		List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
				"-XX:TieredStopAtLevel=1", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
				ArborApplication.class.getName(), "copy", "--from=file", "--to=postgres",
				"--arbor.storage.dir=" + this.folder, "--spring.datasource.url=" + this.database.url(),
				"--spring.datasource.username=" + this.database.user(),
				"--spring.datasource.password=" + this.database.password(), "--logging.level.root=info"));
		Path out = this.temp.resolve("out.txt");
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
		assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the command ends by itself").isTrue();
		String printed = Files.readString(out);
		assertThat(process.exitValue()).as(printed).isEqualTo(CopyCommand.EXIT_INCOMPLETE);
		assertThat(reportLines(printed)).containsExactly("copied     " + TestSessions.SESSION_ID + ": 132 entries",
				"unreadable notes.jsonl: " + NOT_A_SESSION,
				"Copied from file to postgres: 1 copied, 0 unchanged, 0 differing, 0 failed, 1 unreadable");
		// At INFO, a web server would say so; the data source does.
		assertThat(printed).contains("HikariPool").as("no web server").doesNotContain("Jetty", "jetty");
	}

	private static String read(Path file) {
		try {
			return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The sessions of the class comment, written into {@link #folder} as the agents and the file store write them.
	 */
	private Sessions sessionsInFolder() {
		TestSessions.copy(TestSessions.PI_V2, this.folder);
		TestSessions.copy(TestSessions.OMP_V3, this.folder);
		try (FileSessionStore files = TestStores.folder(this.folder)) {
			files.moveLeaf(TestSessions.SESSION_ID, ExpectedLeaf.ANY, BRANCH_ENTRY);
			SessionInfo reset = files.importSession(TestSessions.bytes(TestSessions.PI_V1), false, true);
			files.moveLeaf(reset.id(), ExpectedLeaf.ANY, null);
			String v2Id = files.list()
				.stream()
				.filter(info -> !info.id().equals(TestSessions.SESSION_ID) && !info.id().equals(reset.id()))
				.findFirst()
				.orElseThrow()
				.id();
			return new Sessions(v2Id, reset.id());
		}
	}

	private void assertSameExports(Path folder, Sessions sessions) {
		try (FileSessionStore files = TestStores.folder(folder);
				PostgresSessionStore database = TestStores.database(this.database)) {
			for (String id : sessions.ids()) {
				assertThat(TestStores.export(database, id)).as(id).isEqualTo(TestStores.export(files, id));
			}
			assertThat(TestStores.export(database, TestSessions.SESSION_ID).leafId()).isEqualTo(BRANCH_ENTRY);
			assertThat(TestStores.export(database, sessions.resetId()).leafId()).isNull();
		}
	}

	/** Runs the command with the folder and the database; its exit code and report, without the log. */
	private CopyRun copy(CapturedOutput output, Path folder, String... options) {
		List<String> args = new ArrayList<>(List.of(options));
		args.addAll(List.of("--arbor.storage.dir=" + folder, "--spring.datasource.url=" + this.database.url(),
				"--spring.datasource.username=" + this.database.user(),
				"--spring.datasource.password=" + this.database.password()));
		int start = output.getOut().length();
		int exitCode = CopyCommand.run(args.toArray(String[]::new));
		return new CopyRun(exitCode, reportLines(output.getOut().substring(start)));
	}

	private static List<String> reportLines(String out) {
		return out.lines().filter(line -> REPORT_LINE.matcher(line).matches()).toList();
	}

	private record CopyRun(int exitCode, List<String> lines) {
	}

	/**
	 * The ids of the folder's sessions.
	 *
	 * @param v2Id the version-2 file's
	 * @param resetId the version-1 session's, imported under a new id
	 */
	private record Sessions(String v2Id, String resetId) {

		List<String> ids() {
			return List.of(this.v2Id, TestSessions.SESSION_ID, this.resetId).stream().sorted().toList();
		}

		/** An {@code unchanged} line for each, by id, then the summary. */
		List<String> unchangedLines(String summary) {
			List<String> lines = new ArrayList<>();
			for (String id : ids()) {
				lines.add("unchanged  " + id);
			}
			lines.add(summary);
			return lines;
		}

		/** A {@code copied} line for each, in the order the command copies them (by id), then the summary. */
		List<String> copiedLines(String summary) {
			List<String> lines = new ArrayList<>();
			for (String id : ids()) {
				lines.add("copied     " + id + ": " + entries(id) + " entries");
			}
			lines.add(summary);
			return lines;
		}

		private int entries(String id) {
			return id.equals(this.v2Id) ? V2_ENTRIES : id.equals(TestSessions.SESSION_ID) ? 132 : 49;
		}

	}

}

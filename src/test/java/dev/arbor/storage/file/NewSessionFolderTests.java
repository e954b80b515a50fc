package dev.arbor.storage.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.StorageMetrics;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the store writes the sessions it makes (docs/STORAGE.md#where-new-sessions-go): in pi's folder of their cwd,
 * named as pi names it, and in the root where there is no cwd or that folder may not be written. The storage
 * directory is a folder of the temporary one, so that a write outside it would be seen.
 */
class NewSessionFolderTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");

	@TempDir
	Path dir;

	private Path root;

	@BeforeEach
	void root() {
		this.root = this.dir.resolve("sessions");
	}

	@Test
	void createImportBranchAndForkShouldAllWriteInTheFolderOfTheCwd() throws IOException {
		Path folder = this.root.resolve("--home-me-project--");
		List<String> ids;
		try (FileSessionStore store = store(false)) {
			String created = store.create("/home/me/project", "t", null).id();
			String first = store.append(created, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("one"))).get(0).id();
			store.append(created, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("two")));
			String imported = store.importSession(session("imported", "\"/home/me/project\""), false).id();
			String branched = store.createBranchedSession(created, first).id();
			String forked = store.fork(created).id();
			ids = List.of(created, imported, branched, forked);
			for (String id : ids) {
				assertThat(store.get(id).file()).as(id).isEqualTo(folder.resolve(fileName(id)));
			}
		}
		try (FileSessionStore reopened = store(false)) {
			assertThat(reopened.list()).extracting(SessionInfo::file)
				.containsExactlyInAnyOrderElementsOf(ids.stream().map(id -> folder.resolve(fileName(id))).toList());
		}
		assertThat(names(this.root)).as("the folder, nothing at the top").containsExactly("--home-me-project--");
	}

	@Test
	void theFolderShouldBeNamedAsPiNamesIt() {
		Map<String, String> folders = new LinkedHashMap<>();
		folders.put("/home/me/project", "--home-me-project--");
		folders.put("C:\\src\\app", "--C--src-app--");
		folders.put("\\\\host\\share", "---host-share--"); // one leading separator dropped, not two
		folders.put("//twice", "---twice--");
		folders.put("/a:b/c/", "--a-b-c---");
		folders.put("relative/dir", "--relative-dir--");
		folders.put("/", "----");
		folders.put("/home/me/my project (ü) .v2 ~$*?", "--home-me-my project (ü) .v2 ~$*?--"); // nothing else
		try (FileSessionStore store = store(false)) {
			folders.forEach((cwd, folder) -> assertThat(store.create(cwd, null, null).file().getParent()).as(cwd)
				.isEqualTo(this.root.resolve(folder)));
		}
	}

	@Test
	void aCwdThatClimbsShouldStayAFolderOfTheRoot() throws IOException {
		Map<String, String> folders = new LinkedHashMap<>();
		folders.put("/../../etc", "--..-..-etc--");
		folders.put("..", "--..--");
		folders.put("../x", "--..-x--");
		folders.put(".", "--.--");
		folders.put("/a/./../..", "--a-.-..-..--");
		try (FileSessionStore store = store(false)) {
			folders.forEach((cwd, folder) -> assertThat(store.create(cwd, null, null).file().getParent()).as(cwd)
				.isEqualTo(this.root.resolve(folder)));
		}
		assertThat(names(this.dir)).as("nothing beside the storage directory").containsExactly("sessions");
	}

	@Test
	void aSessionWithoutACwdShouldBeWrittenInTheRoot() {
		try (FileSessionStore store = store(false)) {
			assertThat(store.create(null, null, null).file().getParent()).isEqualTo(this.root);
			assertThat(store.create("", null, null).file().getParent()).as("empty").isEqualTo(this.root);
			assertThat(store.importSession(session("no-cwd", null), false).file().getParent()).isEqualTo(this.root);
			assertThat(store.importSession(session("numeric-cwd", "7"), false).file().getParent()).as("not a string")
				.isEqualTo(this.root);
		}
	}

	@Test
	void aFolderNameNoFileSystemTakesShouldLeaveTheSessionInTheRoot() {
		String longest = "/" + "ü".repeat(125) + "x"; // "--" and "--" around 251 bytes: 255
		String longestFolder = "--" + longest.substring(1) + "--";
		try (FileSessionStore store = store(false)) {
			assertThat(store.create(longest, null, null).file().getParent()).as("255 bytes")
				.isEqualTo(this.root.resolve(longestFolder));
			List<String> inRoot = List.of(store.create(longest + "x", null, null).id(), store.create("/a\0b", null, null).id(),
					store.create("/a\uD800b", null, null).id()); // 256 bytes, a NUL, half a surrogate pair
			assertThat(names(this.root)).containsExactlyInAnyOrder(longestFolder, fileName(inRoot.get(0)),
					fileName(inRoot.get(1)), fileName(inRoot.get(2)));
		}
	}

	@Test
	void aFileUnderTheFolderNameShouldBeLeftAsItIs() throws IOException {
		Files.createDirectories(this.root);
		Path taken = Files.writeString(this.root.resolve("--home-me-project--"), "not a folder");
		try (FileSessionStore store = store(false)) {
			assertThat(store.create("/home/me/project", null, null).file().getParent()).isEqualTo(this.root);
		}
		assertThat(Files.readString(taken)).isEqualTo("not a folder");
	}

	@Test
	void aLinkUnderTheFolderNameShouldBeWrittenThroughOnlyWhereTheBoundaryFollowsIt() throws IOException {
		Path outside = Files.createDirectories(this.dir.resolve("outside"));
		Path inside = Files.createDirectories(this.root.resolve("real"));
		Files.createSymbolicLink(this.root.resolve("--out--"), outside);
		Files.createSymbolicLink(this.root.resolve("--in--"), inside);
		Files.createSymbolicLink(this.root.resolve("--nowhere--"), this.dir.resolve("missing"));
		try (FileSessionStore store = store(false)) {
			assertThat(store.create("/out", null, null).file().getParent()).as("leads out").isEqualTo(this.root);
			assertThat(store.create("/nowhere", null, null).file().getParent()).as("leads nowhere").isEqualTo(this.root);
			assertThat(store.create("/in", null, null).file().getParent()).as("not followed").isEqualTo(this.root);
		}
		try (FileSessionStore store = store(true)) {
			assertThat(store.create("/out", null, null).file().getParent()).as("leads out, followed or not")
				.isEqualTo(this.root);
			SessionInfo through = store.create("/in", null, null);
			assertThat(through.file()).isEqualTo(this.root.resolve("--in--").resolve(fileName(through.id())));
			assertThat(names(inside)).containsExactly(fileName(through.id()));
		}
		assertThat(names(outside)).isEmpty();
		assertThat(this.dir.resolve("missing")).doesNotExist();
	}

	private FileSessionStore store(boolean followLinks) {
		return new FileSessionStore(this.root, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Long.MAX_VALUE,
				Clock.fixed(NOW, ZoneOffset.UTC), StorageMetrics.NONE, FileSessionStore.DEFAULT_TORN_TAIL_GRACE,
				followLinks);
	}

	private static String fileName(String sessionId) {
		return "2026-01-02T03-04-05-678Z_" + sessionId + ".jsonl";
	}

	/** A v3 session of one entry, its cwd given as JSON ({@code null}: no cwd field). */
	private static byte[] session(String id, @Nullable String cwdJson) {
		String cwd = (cwdJson != null) ? ",\"cwd\":" + cwdJson : "";
		return ("{\"type\":\"session\",\"version\":3,\"id\":\"" + id + "\",\"timestamp\":\"2025-01-01T00:00:00.000Z\""
				+ cwd + "}\n" + SessionFiles.entry("e1", null, "hi") + "\n")
			.getBytes(StandardCharsets.UTF_8);
	}

	private static List<String> names(Path folder) {
		try (Stream<Path> names = Files.list(folder)) {
			return names.map(path -> path.getFileName().toString()).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

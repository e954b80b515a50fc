package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.arbor.AgentWrites;
import dev.arbor.session.EntryLine;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LeafMovedException;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionWatch;
import dev.arbor.storage.StorageMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.arbor.storage.file.SessionFiles.HEADER;
import static dev.arbor.storage.file.SessionFiles.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A session file that another process appends to without a lock, as the coding agents do
 * (docs/SESSION-FORMAT.md#reading-a-file and docs/SESSION-FORMAT.md#durability-and-concurrency): Arbor writes only at
 * the true end, takes the other lines in before it checks or plans anything, waits for a line still being written, and
 * reads a rewritten file again instead of writing at a stale offset.
 */
class SharedFileTests {

	private static final Duration GRACE = Duration.ofMillis(1000);

	@TempDir
	Path dir;

	private final Recording changes = new Recording();

	private FileSessionStore store;

	private Path file;

	private void open(String content) {
		this.file = SessionFiles.write(this.dir, "shared.jsonl", content);
		this.store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC(),
				StorageMetrics.NONE, GRACE);
		this.store.addChangeListener(this.changes);
	}

	@AfterEach
	void close() {
		if (this.store != null) {
			this.store.close();
		}
	}

	@Test
	void appendAfterAnOutsideAppendShouldWriteAtTheEndAndHangUnderTheOutsideEntry() throws IOException {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("two")));
		String outside = AgentWrites.userMessage("0utside1", "a", "from the agent");
		AgentWrites.append(this.file, outside + "\n");
		EntryLine mine = this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("three"))).get(0);
		List<String> lines = Files.readAllLines(this.file);
		assertThat(lines).hasSize(5);
		assertThat(lines.get(3)).isEqualTo(outside);
		assertThat(lines.get(4)).isEqualTo(mine.json());
		assertThat(mine.parentId()).as("the outside entry became the leaf").isEqualTo("0utside1");
		assertThat(SessionFiles.idsOf(this.store, "s-1", tree -> tree.getEntries())).containsExactly("a",
				idOfLine(lines.get(2)), "0utside1", mine.id());
		assertThat(this.changes.of(SessionChange.EntriesAppended.class)).extracting(SessionChange.EntriesAppended::origin)
			.containsExactly(Origin.ARBOR, Origin.EXTERNAL, Origin.ARBOR);
		SessionChange.EntriesAppended external = this.changes.of(SessionChange.EntriesAppended.class).get(1);
		assertThat(SessionFiles.ids(external.entries())).containsExactly("0utside1");
		assertThat(external.oldLeafId()).isEqualTo(idOfLine(lines.get(2)));
		assertReloadEqualsServed();
	}

	@Test
	void appendWithAnIfMatchThatAnOutsideAppendMadeStaleShouldFailAndWriteNothing() throws IOException {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		assertThat(this.store.get("s-1").leafId()).isEqualTo("a");
		AgentWrites.append(this.file, AgentWrites.userMessage("0utside1", "a", "from the agent") + "\n");
		byte[] before = Files.readAllBytes(this.file);
		assertThatExceptionOfType(LeafMovedException.class)
			.isThrownBy(() -> this.store.append("s-1", ExpectedLeaf.of("a"), List.of(SessionFiles.userMessage("two"))));
		assertThatExceptionOfType(LeafMovedException.class)
			.isThrownBy(() -> this.store.moveLeaf("s-1", ExpectedLeaf.of("a"), null));
		assertThat(Files.readAllBytes(this.file)).isEqualTo(before);
		assertThat(this.store.get("s-1").leafId()).isEqualTo("0utside1");
	}

	@Test
	void readsShouldSeeOutsideAppendsAtOnce() {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(1);
		AgentWrites.append(this.file, AgentWrites.userMessage("0utside1", "a", "one") + "\n"
				+ AgentWrites.userMessage("0utside2", "0utside1", "two") + "\n");
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(3);
		assertThat(this.store.get("s-1").leafId()).isEqualTo("0utside2");
		assertThat(this.changes.of(SessionChange.EntriesAppended.class)).singleElement()
			.satisfies(appended -> assertThat(SessionFiles.ids(appended.entries())).containsExactly("0utside1", "0utside2"));
	}

	@Test
	void aLineStillBeingWrittenShouldHoldAppendsBackUntilItIsDoneAndNeedNoRepair() throws Exception {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(1);
		String outside = AgentWrites.userMessage("0utside1", "a", "written in two parts");
		AgentWrites.append(this.file, outside.substring(0, 40));
		assertThat(this.store.get("s-1").malformedLines()).as("someone's write in progress is not damage").isZero();
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(1);
		CompletableFuture<List<EntryLine>> append = CompletableFuture.supplyAsync(
				() -> this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("mine"))));
		Thread.sleep(GRACE.toMillis() / 4);
		assertThat(append).as("appending now would glue onto the unfinished line").isNotDone();
		AgentWrites.append(this.file, outside.substring(40) + "\n");
		EntryLine mine = append.get(10, TimeUnit.SECONDS).get(0);
		List<String> lines = Files.readAllLines(this.file);
		assertThat(lines).containsExactly(HEADER, entry("a", null, "one"), outside, mine.json());
		assertThat(mine.parentId()).isEqualTo("0utside1");
		assertThat(SessionFiles.backups(this.dir)).as("nothing to repair").isEmpty();
		assertThat(this.store.get("s-1").malformedLines()).isZero();
		assertThat(this.changes.of(SessionChange.EntriesAppended.class)).extracting(SessionChange.EntriesAppended::origin)
			.containsExactly(Origin.EXTERNAL, Origin.ARBOR);
	}

	@Test
	void aLineLeftUnfinishedPastTheGracePeriodShouldBeACrashRemnantRepairedWithABackup() throws Exception {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(1);
		AgentWrites.append(this.file, "{\"type\":\"message\",\"id\":\"dead");
		byte[] torn = Files.readAllBytes(this.file);
		assertThat(this.store.get("s-1").malformedLines()).isZero();
		Thread.sleep(GRACE.toMillis() + 200);
		assertThat(this.store.get("s-1").malformedLines()).as("a crash remnant counts").isEqualTo(1);
		EntryLine mine = this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("mine"))).get(0);
		assertThat(Files.readAllLines(this.file)).containsExactly(HEADER, entry("a", null, "one"), mine.json());
		assertThat(SessionFiles.backups(this.dir)).singleElement()
			.satisfies(backup -> assertThat(Files.readAllBytes(backup)).isEqualTo(torn));
		assertThat(this.store.get("s-1").malformedLines()).isZero();
	}

	@Test
	void appendWhileALineIsUnfinishedLongerThanAWriteMayWaitShouldRepairAndThenWrite() throws Exception {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(1);
		AgentWrites.append(this.file, "{\"type\":\"mess");
		long start = System.nanoTime();
		EntryLine mine = this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("mine"))).get(0);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(GRACE.minusMillis(50));
		assertThat(Files.readAllLines(this.file)).containsExactly(HEADER, entry("a", null, "one"), mine.json());
		assertThat(SessionFiles.backups(this.dir)).hasSize(1);
	}

	@Test
	void aFileThatAnotherProcessReplacedShouldBeReadAgainAndNeverWrittenAtAStaleOffset() throws IOException {
		open(HEADER + "\n" + entry("a", null, "one") + "\n" + entry("b", "a", "two") + "\n" + entry("c", "b", "three")
				+ "\n");
		this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("four"))); // holds the file open
		String rewritten = HEADER + "\n" + entry("a", null, "one") + "\n" + entry("x", "a", "other") + "\n";
		Path temp = this.dir.resolve("rewrite.tmp");
		Files.writeString(temp, rewritten);
		Files.move(temp, this.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
		EntryLine mine = this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("five"))).get(0);
		assertThat(Files.readString(this.file)).isEqualTo(rewritten + mine.json() + "\n");
		assertThat(mine.parentId()).isEqualTo("x");
		assertThat(this.changes.of(SessionChange.SessionReloaded.class)).singleElement()
			.satisfies(reloaded -> assertThat(reloaded.session().entryCount()).isEqualTo(2));
		assertReloadEqualsServed();
	}

	@Test
	void aFileThatAnotherProcessShrankInPlaceShouldBeReadAgain() throws IOException {
		open(HEADER + "\n" + entry("a", null, "one") + "\n" + entry("b", "a", "two") + "\n");
		this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("three")));
		String rewritten = HEADER + "\n" + entry("a", null, "one") + "\n"; // as upstream's writeFileSync does
		Files.writeString(this.file, rewritten);
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(1);
		EntryLine mine = this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("four"))).get(0);
		assertThat(Files.readString(this.file)).isEqualTo(rewritten + mine.json() + "\n");
		assertThat(this.changes.of(SessionChange.SessionReloaded.class)).hasSize(1);
	}

	@Test
	void aTitleSlotRewrittenInPlaceAtTheSameLengthShouldBeReadAgain() throws Exception {
		String slot = titleSlot("first title");
		String content = slot + HEADER + "\n" + entry("a", null, "one") + "\n";
		open(content);
		assertThat(this.store.get("s-1").title()).isEqualTo("first title");
		Thread.sleep(20); // a newer modification time than the load saw
		Files.writeString(this.file, titleSlot("a new title") + HEADER + "\n" + entry("a", null, "one") + "\n");
		assertThat(Files.size(this.file)).isEqualTo(content.length());
		assertThat(this.store.get("s-1").title()).isEqualTo("a new title");
		assertThat(this.changes.of(SessionChange.SessionReloaded.class)).hasSize(1);
	}

	@Test
	void aFileThatAnotherProcessRemovedShouldEndTheSession() throws IOException {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("two")));
		Files.delete(this.file);
		assertThatExceptionOfType(SessionNotFoundException.class)
			.isThrownBy(() -> this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("three"))));
		assertThat(this.file).doesNotExist();
		assertThat(this.changes.of(SessionChange.SessionDeleted.class)).singleElement()
			.satisfies(deleted -> assertThat(deleted.origin()).isEqualTo(Origin.EXTERNAL));
		assertThat(this.store.list()).isEmpty();
	}

	@Test
	void anUnknownFileThatAppearsShouldBeAnnouncedOnceWhenTheDirectoryIsLookedAt() throws IOException {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		Path other = this.dir.resolve("sub").resolve("new.jsonl");
		Files.createDirectories(other.getParent());
		Files.writeString(other, HEADER.replace("s-1", "s-2") + "\n" + entry("z", null, "hi") + "\n");
		this.store.registry().directoryChanged(other.getParent());
		this.store.registry().fileChanged(other);
		assertThat(this.changes.of(SessionChange.SessionCreated.class)).singleElement().satisfies(created -> {
			assertThat(created.sessionId()).isEqualTo("s-2");
			assertThat(created.origin()).isEqualTo(Origin.EXTERNAL);
			assertThat(created.session().entryCount()).isEqualTo(1);
		});
		Files.delete(other);
		this.store.registry().fileChanged(other);
		assertThat(this.changes.of(SessionChange.SessionDeleted.class)).singleElement()
			.satisfies(deleted -> assertThat(deleted.sessionId()).isEqualTo("s-2"));
	}

	@Test
	void aWatchedSessionShouldStayLoadedAndTakeInWhatOthersAppend() throws IOException {
		open(HEADER + "\n" + entry("a", null, "one") + "\n");
		SessionFiles.write(this.dir, "other.jsonl", HEADER.replace("s-1", "s-2") + "\n" + entry("z", null, "other") + "\n");
		SessionFiles.write(this.dir, "third.jsonl", HEADER.replace("s-1", "s-3") + "\n" + entry("y", null, "third") + "\n");
		this.store.close();
		this.store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, 1, Clock.systemUTC(), StorageMetrics.NONE, GRACE);
		this.store.addChangeListener(this.changes);
		this.store.read("s-1", tree -> tree);
		this.store.read("s-2", tree -> tree); // over the budget of one byte: s-1 is unloaded
		assertThat(this.store.loadedSessions()).isEqualTo(1);
		try (SessionWatch watch = this.store.watch("s-1")) {
			this.store.read("s-2", tree -> tree);
			assertThat(this.store.loadedSessions()).as("s-2 cannot unload s-1 while it is watched").isEqualTo(2);
			AgentWrites.append(this.file, AgentWrites.userMessage("0utside1", "a", "from the agent") + "\n");
			this.store.registry().pollLoaded();
			assertThat(this.changes.of(SessionChange.EntriesAppended.class)).singleElement()
				.satisfies(appended -> assertThat(appended.origin()).isEqualTo(Origin.EXTERNAL));
		}
		this.store.read("s-3", tree -> tree);
		assertThat(this.store.loadedSessions()).as("unwatched, it goes when memory is needed").isEqualTo(1);
	}

	private void assertReloadEqualsServed() throws IOException {
		LoadedSession reloaded = SessionFileReader.read(this.file);
		assertThat(SessionFiles.idsOf(this.store, "s-1", tree -> tree.getEntries()))
			.isEqualTo(SessionFiles.ids(reloaded.tree().getEntries()));
		assertThat(this.store.get("s-1").leafId()).isEqualTo(reloaded.tree().leafId());
		assertThat(reloaded.malformedLines()).isEmpty();
	}

	private static String idOfLine(String line) {
		return dev.arbor.session.Json.MAPPER.readTree(line).get("id").asString();
	}

	/** oh-my-pi's title slot: one line of exactly 256 bytes with its newline. */
	private static String titleSlot(String title) {
		String start = "{\"type\":\"title\",\"v\":1,\"title\":\"" + title
				+ "\",\"source\":\"user\",\"updatedAt\":\"2025-01-01T00:00:00.000Z\",\"pad\":\"";
		return start + " ".repeat(256 - start.length() - 3) + "\"}\n";
	}

	/** Keeps every change it is told of. */
	private static final class Recording implements SessionChangeListener {

		private final List<SessionChange> changes = new ArrayList<>();

		@Override
		public synchronized void onChange(SessionChange change) {
			this.changes.add(change);
		}

		synchronized <T extends SessionChange> List<T> of(Class<T> type) {
			return this.changes.stream().filter(type::isInstance).map(type::cast).toList();
		}

	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.arbor.AgentWrites;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.StorageMetrics;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The listing ({@link FileSessionStore#list}) sees what another process did to the folder, with the folder watch
 * running (the listing trusts what it reported: no walk, no look at each file) and without it (the folder walked and
 * every file looked at): a new file listed, a removed one gone, an append counted; with a cache that holds every
 * session and with one that holds none (docs/STORAGE.md#how-a-listing-stays-current).
 */
class ListingBesideAgentTests {

	/** How long the watch may take to report a change before the test gives up: far more than it ever needs. */
	private static final long PATIENCE_MILLIS = 10_000;

	private static final String ID = "0199a000-0000-7000-8000-0000000000a1";

	@TempDir
	Path dir;

	private @Nullable FileSessionStore store;

	private @Nullable SessionFolderWatch watch;

	static Stream<Arguments> watchAndCache() {
		return Stream.of(Arguments.of(true, Long.MAX_VALUE), Arguments.of(true, 1L), Arguments.of(false, Long.MAX_VALUE),
				Arguments.of(false, 1L));
	}

	@AfterEach
	void close() throws IOException {
		if (this.watch != null) {
			this.watch.close();
		}
		if (this.store != null) {
			this.store.close();
		}
	}

	@ParameterizedTest(name = "watch {0}, cache {1} bytes")
	@MethodSource("watchAndCache")
	void listWhenAnotherProcessWritesANewFileShouldListIt(boolean watched, long cacheBytes) throws IOException {
		FileSessionStore store = start(watched, cacheBytes);
		String before = store.create("/w", "mine", null).id();
		assertThat(ids(store.list())).containsExactly(before);
		Path file = agentFile();
		AgentWrites.append(file, header() + AgentWrites.userMessage("a0000001", null, "hello there") + "\n");
		List<SessionInfo> listed = listingWhere(watched, sessions -> sessions.containsKey(ID)).values()
			.stream()
			.toList();
		assertThat(ids(listed)).containsExactlyInAnyOrder(ID, before);
		SessionInfo agent = byId(store.list()).get(ID);
		assertThat(agent.file()).isEqualTo(file);
		assertThat(agent.listing().firstMessage()).isEqualTo("hello there");
		assertThat(agent.listing().messageCount()).isEqualTo(1);
	}

	@ParameterizedTest(name = "watch {0}, cache {1} bytes")
	@MethodSource("watchAndCache")
	void listWhenAnotherProcessRemovesAFileShouldNotListItAnyMore(boolean watched, long cacheBytes)
			throws IOException {
		Path file = agentFile();
		AgentWrites.append(file, header() + AgentWrites.userMessage("a0000001", null, "hello there") + "\n");
		FileSessionStore store = start(watched, cacheBytes);
		String mine = store.create("/w", "mine", null).id();
		assertThat(ids(store.list())).containsExactlyInAnyOrder(ID, mine);
		Files.delete(file);
		assertThat(listingWhere(watched, sessions -> !sessions.containsKey(ID))).containsOnlyKeys(mine);
	}

	@ParameterizedTest(name = "watch {0}, cache {1} bytes")
	@MethodSource("watchAndCache")
	void listWhenAnotherProcessAppendsShouldShowTheNewCountAndChangeTime(boolean watched, long cacheBytes)
			throws IOException {
		Path file = agentFile();
		AgentWrites.append(file, header() + AgentWrites.userMessage("a0000001", null, "hello there") + "\n");
		SessionFiles.backdate(file);
		FileSessionStore store = start(watched, cacheBytes);
		store.create("/w", "mine", null); // with a cache of one byte, loading it unloads the agent's session
		SessionInfo first = byId(store.list()).get(ID);
		assertThat(first.listing().messageCount()).isEqualTo(1);
		AgentWrites.append(file, AgentWrites.userMessage("a0000002", "a0000001", "and more") + "\n"
				+ "{\"type\":\"session_info\",\"id\":\"a0000003\",\"parentId\":\"a0000002\",\"timestamp\":\"2026-12-01T10:00:00.000Z\",\"name\":\"named by the agent\"}\n");
		SessionInfo after = listingWhere(watched, sessions -> sessions.get(ID).listing().messageCount() == 2).get(ID);
		assertThat(after.listing().name()).isEqualTo("named by the agent");
		assertThat(after.listing().firstMessage()).isEqualTo("hello there");
		assertThat(after.entryCount()).isEqualTo(3);
		assertThat(after.changedAt()).isGreaterThan(first.changedAt());
	}

	@ParameterizedTest(name = "watch {0}, cache {1} bytes")
	@MethodSource("watchAndCache")
	void listWhenNothingChangedShouldHandOutTheSameListAgain(boolean watched, long cacheBytes) {
		FileSessionStore store = start(watched, cacheBytes);
		String first = store.create("/w", "one", null).id();
		store.create("/w", "two", null);
		List<SessionInfo> listed = store.list();
		assertThat(store.list()).isSameAs(listed);
		store.delete(first, ExpectedLeaf.ANY);
		List<SessionInfo> afterDelete = store.list();
		assertThat(afterDelete).isNotSameAs(listed).hasSize(1);
		assertThat(store.list()).isSameAs(afterDelete);
	}

	@Test
	void listWhenTheFileChangedBeforeTheWatchBeganShouldLookAtTheFileOnce() throws IOException {
		Path file = agentFile();
		AgentWrites.append(file, header() + AgentWrites.userMessage("a0000001", null, "hello there") + "\n");
		SessionFiles.backdate(file);
		FileSessionStore store = start(false, 1L);
		store.create("/w", "mine", null);
		assertThat(byId(store.list()).get(ID).listing().messageCount()).isEqualTo(1);
		AgentWrites.append(file, AgentWrites.userMessage("a0000002", "a0000001", "unseen by any watch") + "\n");
		this.watch = startWatch(store); // what happened before it is for one walk to find, as after lost events
		assertThat(byId(store.list()).get(ID).listing().messageCount()).isEqualTo(2);
	}

	private FileSessionStore start(boolean watched, long cacheBytes) {
		this.store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, cacheBytes, Clock.systemUTC(),
				StorageMetrics.NONE);
		if (watched) {
			this.watch = startWatch(this.store);
		}
		return this.store;
	}

	private static SessionFolderWatch startWatch(FileSessionStore store) {
		try {
			return SessionFolderWatch.start(store);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The listing by id once it satisfies the condition: at once without the watch, where the listing looks at the
	 * folder itself; with it, as soon as the watch has reported the change.
	 */
	private Map<String, SessionInfo> listingWhere(boolean watched, Predicate<Map<String, SessionInfo>> condition) {
		long deadline = System.currentTimeMillis() + (watched ? PATIENCE_MILLIS : 0);
		Map<String, SessionInfo> sessions = byId(this.store.list());
		while (!condition.test(sessions) && System.currentTimeMillis() < deadline) {
			sleep();
			sessions = byId(this.store.list());
		}
		assertThat(sessions).matches(condition, "the listing shows the other process's change");
		return sessions;
	}

	private static void sleep() {
		try {
			Thread.sleep(10);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private Path agentFile() throws IOException {
		Path folder = Files.createDirectories(this.dir.resolve("--home-me-project--"));
		return folder.resolve("2026-12-01T10-00-00-000Z_" + ID + ".jsonl");
	}

	private static String header() {
		return "{\"type\":\"session\",\"version\":3,\"id\":\"" + ID
				+ "\",\"timestamp\":\"2026-12-01T10:00:00.000Z\",\"cwd\":\"/home/me/project\"}\n";
	}

	private static List<String> ids(List<SessionInfo> sessions) {
		return sessions.stream().map(SessionInfo::id).toList();
	}

	private static Map<String, SessionInfo> byId(List<SessionInfo> sessions) {
		return sessions.stream().collect(Collectors.toMap(SessionInfo::id, info -> info));
	}

}

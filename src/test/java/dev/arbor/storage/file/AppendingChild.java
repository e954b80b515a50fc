package dev.arbor.storage.file;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Random;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionLockedException;
import tools.jackson.databind.node.ObjectNode;

/**
 * The process that {@link CrashRecoveryTests} and {@link FileLockTests} kill: appends message entries to one
 * session in a loop with {@link FsyncPolicy#ALWAYS}, and prints each entry id on stdout only after
 * {@code append} returned, so every printed id is acknowledged (docs/SESSION-FORMAT.md#durability-and-concurrency).
 * Never exits on its own before {@value #MAX_APPENDS} appends.
 * <p>
 * Arguments: the storage directory, the session id or {@code -} to create one (its id is printed first as
 * {@code session <id>}), a seed for the entry sizes and a scratch directory to warm up in. It starts appending
 * when it reads {@code go} on stdin. An append refused because another process holds the session prints
 * {@value #LOCKED} and is retried. Every few entries is large (tens of KiB), so that a kill can also land inside
 * a write that spans many pages.
 */
public final class AppendingChild {

	static final String SESSION_PREFIX = "session ";

	static final int MAX_APPENDS = 10_000;

	/** Printed for an append refused with {@link SessionLockedException}; the child retries it. */
	static final String LOCKED = "locked";

	private static final long LOCKED_RETRY_MILLIS = 10;

	private AppendingChild() {
	}

	public static void main(String[] args) throws IOException {
		Path dir = Path.of(args[0]);
		Random random = new Random(Long.parseLong(args[2]));
		warmUp(Path.of(args[3]), random);
		// Started ahead of its round, so that starting a JVM overlaps the previous round: go on "go".
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		if (!"go".equals(in.readLine())) {
			return;
		}
		FileSessionStore store = new FileSessionStore(dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
		String sessionId = args[1];
		if ("-".equals(sessionId)) {
			sessionId = store.create("/crash", "crash recovery", null).id();
			System.out.print(SESSION_PREFIX + sessionId + "\n");
			System.out.flush();
		}
		for (int i = 0; i < MAX_APPENDS; i++) {
			List<EntryLine> written;
			try {
				written = store.append(sessionId, ExpectedLeaf.ANY, List.of(draft(i, random)));
			}
			catch (SessionLockedException ex) { // another process writes the session: say so and try again
				System.out.print(LOCKED + "\n");
				System.out.flush();
				sleep(LOCKED_RETRY_MILLIS);
				i--;
				continue;
			}
			System.out.print(written.get(0).id() + "\n"); // only now is it acknowledged: one pipe write per id
			System.out.flush();
			if (System.out.checkError()) { // PrintStream hides failures: never append past an id nobody got
				System.err.println("Could not print " + written.get(0).id());
				Runtime.getRuntime().halt(3);
			}
		}
	}

	/** Loads the classes an append needs, on a scratch directory: class loading is most of a JVM's startup. */
	private static void warmUp(Path scratch, Random random) throws IOException {
		Path dir = Files.createTempDirectory(scratch, "warm-up");
		try (FileSessionStore store = new FileSessionStore(dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC())) {
			String sessionId = store.create(null, null, null).id();
			store.append(sessionId, ExpectedLeaf.ANY, List.of(draft(0, random)));
			store.delete(sessionId, ExpectedLeaf.ANY);
		}
		Files.delete(dir);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static ObjectNode draft(int index, Random random) {
		int size = (random.nextInt(16) == 0) ? 8_192 + random.nextInt(64 * 1024) : random.nextInt(200);
		ObjectNode message = Json.newObject();
		message.put("role", "user");
		message.put("content", "entry " + index + " " + "x".repeat(size));
		ObjectNode draft = Json.newObject();
		draft.put("type", "message");
		draft.set("message", message);
		return draft;
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionFileReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGKILL at a random moment loses nothing acknowledged (docs/SESSION-FORMAT.md#durability-and-concurrency): a child
 * JVM appends with {@link FsyncPolicy#ALWAYS} and prints each id once {@code append} returned, the test kills it and
 * reloads the file. One session across all rounds, so each round also starts from what the previous kill left,
 * including a torn tail that its first append must repair with a backup.
 * <p>
 * The seed is in every assertion's description; rerun one with {@code -Darbor.crash.seed=<seed>}.
 */
class CrashRecoveryTests {

	private static final int ROUNDS = 20;

	private static final int MAX_ACKNOWLEDGED_BEFORE_KILL = 200;

	@TempDir
	Path dir;

	/** The children's stderr and warm-up: not the storage directory. */
	@TempDir
	Path work;

	@Test
	void appendWhenChildIsKilledBySigkillShouldKeepEveryAcknowledgedEntryAndRepairTornTails() throws Exception {
		long seed = Long.getLong("arbor.crash.seed", System.nanoTime());
		System.out.println("CrashRecoveryTests: seed " + seed);
		Random random = new Random(seed);
		String sessionId = null;
		List<String> loadedIds = List.of(); // the file's entries after the previous round
		byte[] tornTail = null; // the file's bytes when the previous round left a torn tail
		int repairs = 0;
		int naturalTornTails = 0;
		int inFlight = 0;
		AppendingChildProcess next = null;
		try {
			for (int round = 1; round <= ROUNDS; round++) {
				String context = "seed " + seed + ", round " + round;
				int acknowledgedBeforeKill = 1 + random.nextInt(MAX_ACKNOWLEDGED_BEFORE_KILL);
				// Half the rounds kill at once after reading an id, half a little later, inside another append.
				long delayNanos = random.nextBoolean() ? 0 : TimeUnit.MICROSECONDS.toNanos(random.nextInt(3_000));
				AppendingChildProcess child = (next != null) ? next
						: AppendingChildProcess.start(this.dir, sessionId, random.nextLong(), this.work);
				next = null;
				List<String> acknowledged;
				try (child) {
					child.go();
					if (sessionId == null) {
						sessionId = child.awaitSessionId();
					}
					if (round < ROUNDS) { // the next JVM starts while this one appends
						next = AppendingChildProcess.start(this.dir, sessionId, random.nextLong(), this.work);
					}
					child.awaitAcknowledged(acknowledgedBeforeKill);
					if (delayNanos > 0) {
						LockSupport.parkNanos(delayNanos);
					}
					acknowledged = child.kill();
				}

				Path file = sessionFile(sessionId, context);
				byte[] bytes = Files.readAllBytes(file);
				LoadedSession loaded = SessionFileReader.read(file); // loads: the header survived every kill
				List<EntryLine> entries = loaded.tree().getEntries();
				List<String> ids = entries.stream().map(EntryLine::id).toList();

				// Every entry of the previous round is still there, in order, then every acknowledged one, then at
				// most the one in flight when the kill came.
				assertThat(ids.size() - loadedIds.size() - acknowledged.size())
					.as(context + ": entries beyond the previous round's and the acknowledged")
					.isBetween(0, 1);
				inFlight += ids.size() - loadedIds.size() - acknowledged.size();
				assertThat(ids.subList(0, loadedIds.size())).as(context).isEqualTo(loadedIds);
				assertThat(ids.subList(loadedIds.size(), loadedIds.size() + acknowledged.size())).as(context)
					.isEqualTo(acknowledged);
				// One writer with ExpectedLeaf.ANY and no leaf moves: one chain in file order.
				for (int i = 1; i < entries.size(); i++) {
					assertThat(entries.get(i).parentId()).as(context + ": parent of line " + (i + 2))
						.isEqualTo(entries.get(i - 1).id());
				}
				assertThat(loaded.malformedLines()).as(context).hasSizeLessThanOrEqualTo(1);
				boolean torn = !loaded.malformedLines().isEmpty();
				if (torn) {
					naturalTornTails++;
					assertThat(bytes[bytes.length - 1]).as(context + ": a torn line is the last, with no newline")
						.isNotEqualTo((byte) '\n');
					assertThat(loaded.malformedLines().get(0).offset()).as(context)
						.isEqualTo(lastIndexOf(bytes, (byte) '\n') + 1);
				}

				// The previous round's torn tail was repaired by this round's first append, after a backup of it.
				if (tornTail != null) {
					repairs++;
					byte[] tornFile = tornTail;
					int tornLine = lastIndexOf(tornFile, (byte) '\n') + 1;
					assertThat(Arrays.copyOf(bytes, tornLine)).as(context + ": the repair kept every whole line as it was")
						.isEqualTo(Arrays.copyOf(tornFile, tornLine));
					assertThat(backups()).as(context + ": a backup holds the torn file as it was")
						.anySatisfy(backup -> assertThat(Files.readAllBytes(backup)).isEqualTo(tornFile));
				}
				assertThat(backups()).as(context + ": one backup per repair, none otherwise").hasSize(repairs);

				// A kill rarely tears a line by itself; when it did not, tear one as a kill inside a write would, so
				// that the next round repairs it.
				if (!torn && round % 3 == 0) {
					byte[] line = entries.get(entries.size() - 1).bytes();
					Files.write(file, Arrays.copyOf(line, 1 + random.nextInt(line.length - 1)), StandardOpenOption.APPEND);
					// A remnant of a crash, not a line being written
					// (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
					SessionFiles.backdate(file);
					torn = true;
				}
				tornTail = torn ? Files.readAllBytes(file) : null;
				loadedIds = ids;
			}
		}
		finally {
			if (next != null) {
				next.close();
			}
		}
		System.out.printf("CrashRecoveryTests: %d entries, %d written but not acknowledged, %d repairs, %d torn tails"
				+ " left by a kill%n", loadedIds.size(), inFlight, repairs, naturalTornTails);
	}

	/** The one session file, wherever under the storage directory the store put it (docs/STORAGE.md#where-new-sessions-go). */
	private Path sessionFile(String sessionId, String context) throws IOException {
		try (Stream<Path> files = Files.walk(this.dir)) {
			List<Path> sessions = files.filter(Files::isRegularFile).filter(StorageFiles::isSessionFile).toList();
			assertThat(sessions).as(context).singleElement()
				.satisfies(file -> assertThat(file.getFileName().toString()).endsWith("_" + sessionId + ".jsonl"));
			return sessions.get(0);
		}
	}

	/** Every backup under the storage directory: next to the session file, or anywhere else it should not be. */
	private List<Path> backups() throws IOException {
		try (Stream<Path> files = Files.walk(this.dir)) {
			return new ArrayList<>(
					files.filter(file -> file.getFileName().toString().endsWith(StorageFiles.BACKUP_SUFFIX)).toList());
		}
	}

	private static int lastIndexOf(byte[] bytes, byte value) {
		for (int i = bytes.length - 1; i >= 0; i--) {
			if (bytes[i] == value) {
				return i;
			}
		}
		return -1;
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LoadedSession;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionFileReader;
import dev.arbor.storage.StorageException;
import dev.arbor.storage.StorageMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.arbor.storage.file.SessionFiles.HEADER;
import static dev.arbor.storage.file.SessionFiles.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A write that fails after its bytes reached the file, by something other than an I/O error: memory running out on
 * the writing thread (docs/SESSION-FORMAT.md#durability-and-concurrency). The failure comes from the store's
 * metrics, which run on the writing thread as part of the fsync (as a recorder may, when memory runs out). Afterwards
 * the tree the store serves is what the file holds, and the session takes writes and announces them again.
 */
class FailedWriteTests {

	@TempDir
	Path dir;

	private FileSessionStore store;

	private final List<SessionChange> changes = new ArrayList<>();

	@AfterEach
	void close() {
		if (this.store != null) {
			this.store.close();
		}
	}

	@Test
	void appendWhoseFsyncRunsOutOfMemoryShouldFailAndLeaveTheServedTreeAsTheFileIsAndTheSessionWritable()
			throws Exception {
		Path file = SessionFiles.write(this.dir, "s.jsonl", HEADER + "\n" + entry("a", null, "one") + "\n");
		AtomicBoolean failNext = new AtomicBoolean();
		StorageMetrics metrics = new StorageMetrics() {
			@Override
			public void synced(long nanos) {
				if (failNext.getAndSet(false)) {
					throw new OutOfMemoryError("Java heap space");
				}
			}
		};
		this.store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Long.MAX_VALUE,
				Clock.systemUTC(), metrics, Duration.ofSeconds(1), false);
		this.store.addChangeListener(new SessionChangeListener() {
			@Override
			public void onChange(SessionChange change) {
				synchronized (FailedWriteTests.this.changes) {
					FailedWriteTests.this.changes.add(change);
				}
			}
		});
		this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("two")));
		failNext.set(true);
		assertThatExceptionOfType(StorageException.class)
			.isThrownBy(() -> this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("lost"))));
		assertServedIsFile(file);
		String after = CompletableFuture
			.supplyAsync(() -> this.store.append("s-1", ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("three")))
				.get(0)
				.id())
			.get(10, TimeUnit.SECONDS); // before: it waited for ever for the fsync that never ended
		assertServedIsFile(file);
		assertThat(this.store.get("s-1").leafId()).isEqualTo(after);
		synchronized (this.changes) {
			assertThat(this.changes).filteredOn(SessionChange.EntriesAppended.class::isInstance)
				.extracting(change -> ((SessionChange.EntriesAppended) change).newLeafId())
				.as("the write after the failure is announced")
				.contains(after);
		}
	}

	private void assertServedIsFile(Path file) throws IOException {
		LoadedSession fresh = SessionFileReader.read(file);
		assertThat(SessionFiles.idsOf(this.store, "s-1", tree -> tree.getEntries()))
			.isEqualTo(SessionFiles.ids(fresh.tree().getEntries()));
		assertThat(this.store.get("s-1").entryCount()).isEqualTo(fresh.tree().size());
		assertThat(fresh.malformedLines()).isEmpty();
	}

}

package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * One file's appends: group commit and what a failed fsync leaves behind
 * (docs/SESSION-FORMAT.md#durability-and-concurrency).
 */
class SessionFileTests {

	@TempDir
	Path dir;

	@Test
	void syncToWhenAnFsyncIsInFlightShouldCoverEveryLaterWriterWithOneMoreFsync() throws Exception {
		Path path = SessionFiles.write(this.dir, "group.jsonl", SessionFiles.HEADER + "\n");
		AtomicInteger forces = new AtomicInteger();
		CountDownLatch firstForceEntered = new CountDownLatch(1);
		CountDownLatch releaseFirstForce = new CountDownLatch(1);
		SessionFile.Force force = channel -> {
			if (forces.incrementAndGet() == 1) {
				firstForceEntered.countDown();
				await(releaseFirstForce);
			}
			channel.force(false);
		};
		ExecutorService threads = Executors.newFixedThreadPool(3);
		try (SessionFile file = SessionFile.open(path, FsyncPolicy.ALWAYS, force)) {
			long first = write(file, line("a"));
			Future<?> firstSync = threads.submit(() -> syncTo(file, first));
			assertThat(firstForceEntered.await(10, TimeUnit.SECONDS)).isTrue();
			long second = write(file, line("b"));
			long third = write(file, line("c"));
			Future<?> secondSync = threads.submit(() -> syncTo(file, second));
			Future<?> thirdSync = threads.submit(() -> syncTo(file, third));
			Thread.sleep(200); // both now wait for the fsync in flight, which does not cover them
			assertThat(secondSync.isDone()).isFalse();
			assertThat(thirdSync.isDone()).isFalse();
			releaseFirstForce.countDown();
			firstSync.get(10, TimeUnit.SECONDS);
			secondSync.get(10, TimeUnit.SECONDS);
			thirdSync.get(10, TimeUnit.SECONDS);
			assertThat(forces).hasValue(2);
			assertThat(file.hasPendingSync()).isFalse();
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void syncToWhenFsyncFailsShouldRefuseLaterWritesAndDiscardWhatWasNotOnDisk() throws IOException {
		Path path = SessionFiles.write(this.dir, "failing.jsonl", SessionFiles.HEADER + "\n");
		AtomicBoolean failing = new AtomicBoolean();
		SessionFile.Force force = channel -> {
			if (failing.get()) {
				throw new IOException("EIO (simulated)");
			}
			channel.force(false);
		};
		try (SessionFile file = SessionFile.open(path, FsyncPolicy.ALWAYS, force)) {
			file.syncTo(write(file, line("kept")));
			long durable = Files.size(path);
			failing.set(true);
			long end = write(file, line("lost"));
			assertThat(Files.size(path)).isEqualTo(end);
			assertThatIOException().isThrownBy(() -> file.syncTo(end)).withMessageContaining("EIO");
			failing.set(false);
			assertThatIOException().isThrownBy(() -> write(file, line("refused")))
				.withMessageContaining("takes no more writes");
			assertThatIOException().isThrownBy(() -> file.syncTo(end)); // a retried fsync proves nothing
			file.discardUnsynced();
			assertThat(Files.size(path)).isEqualTo(durable);
			assertThat(Files.readString(path)).endsWith("kept\"}}\n").doesNotContain("lost");
		}
	}

	private static ByteBuffer line(String text) {
		String json = "{\"type\":\"message\",\"id\":\"" + text + "\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}\n";
		return ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8));
	}

	/** Appends at the end, as the store does, and returns the new end. */
	private static long write(SessionFile file, ByteBuffer line) throws IOException {
		long start = file.size();
		int length = line.remaining();
		file.append(line, start);
		file.reached(start + length, false);
		return start + length;
	}

	private static Void syncTo(SessionFile file, long end) throws IOException {
		file.syncTo(end);
		return null;
	}

	private static void await(CountDownLatch latch) throws IOException {
		try {
			if (!latch.await(10, TimeUnit.SECONDS)) {
				throw new IOException("latch not released");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

}

package dev.arbor.storage.file;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.AppendInFlightException;
import dev.arbor.storage.AppendKeys;
import dev.arbor.storage.Appended;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import dev.arbor.storage.IdempotencyKeyReusedException;
import dev.arbor.storage.StorageException;
import dev.arbor.storage.StorageMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static dev.arbor.storage.file.SessionFiles.HEADER;
import static dev.arbor.storage.file.SessionFiles.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Appends under an idempotency key on real files (docs/API.md#idempotent-appends): a retry finds what an earlier
 * attempt stored in the session itself, when the store failed after the fsync, after a restart and after the key was
 * forgotten; the key's memory refuses another body and a retry while the first attempt runs.
 */
class AppendKeysTests {

	private static final IdempotencyKey KEY = new IdempotencyKey("8e03978e-40d5-43e8-bc93-6894a57f9324");

	@TempDir
	Path dir;

	private FileSessionStore store;

	private Path file;

	@AfterEach
	void close() {
		if (this.store != null) {
			this.store.close();
		}
	}

	@Test
	void retryWhenTheFirstAttemptFailedAfterItsFsyncAndItsLinesStayedShouldAnswerThemWithoutWritingAgain() {
		AtomicBoolean failNext = new AtomicBoolean();
		open(new StorageMetrics() {
			@Override
			public void synced(long nanos) {
				if (failNext.getAndSet(false)) {
					// an agent appends after Arbor's line, so the failed append's line is not cut off: it is durable,
					// and its answer is lost (docs/SESSION-FORMAT.md#durability-and-concurrency)
					appendAsAnotherProcess(entry("agent001", "a", "the agent's") + "\n");
					throw new OutOfMemoryError("Java heap space");
				}
			}
		});
		AppendKeys keys = keys(this.store, Clock.systemUTC());
		failNext.set(true);
		assertThatExceptionOfType(StorageException.class)
			.isThrownBy(() -> keys.append("s-1", ExpectedLeaf.ANY, drafts("lost answer"), KEY));
		assertThat(count("lost answer")).as("the failed attempt's line").isOne();
		Appended retry = keys.append("s-1", ExpectedLeaf.ANY, drafts("lost answer"), KEY);
		assertThat(retry.replayed()).isTrue();
		assertThat(retry.entries()).extracting(EntryLine::json).singleElement().asString().contains("lost answer");
		assertThat(count("lost answer")).isOne();
	}

	@Test
	void retryWhenTheFirstAttemptsFsyncFailedAndItsLinesWereCutOffShouldAppendOnce() {
		AtomicBoolean failNext = new AtomicBoolean();
		open(new StorageMetrics() {
			@Override
			public void synced(long nanos) {
				if (failNext.getAndSet(false)) {
					throw new OutOfMemoryError("Java heap space");
				}
			}
		});
		AppendKeys keys = keys(this.store, Clock.systemUTC());
		failNext.set(true);
		assertThatExceptionOfType(StorageException.class)
			.isThrownBy(() -> keys.append("s-1", ExpectedLeaf.ANY, drafts("cut off"), KEY));
		assertThat(count("cut off")).as("a failed fsync cuts off what it did not cover").isZero();
		Appended retry = keys.append("s-1", ExpectedLeaf.ANY, drafts("cut off"), KEY);
		assertThat(retry.replayed()).isFalse();
		assertThat(count("cut off")).isOne();
		assertThat(keys.append("s-1", ExpectedLeaf.ANY, drafts("cut off"), KEY).replayed()).isTrue();
	}

	@Test
	void retryAfterARestartShouldFindTheEntryInTheFile() {
		open(StorageMetrics.NONE);
		Appended first = keys(this.store, Clock.systemUTC()).append("s-1", ExpectedLeaf.ANY, drafts("before"), KEY);
		this.store.close();
		open(StorageMetrics.NONE);
		Appended retry = keys(this.store, Clock.systemUTC()).append("s-1", ExpectedLeaf.of("a"), drafts("before"), KEY);
		assertThat(first.replayed()).isFalse();
		assertThat(retry.replayed()).isTrue();
		assertThat(retry.entries()).isEqualTo(first.entries());
		assertThat(count("before")).isOne();
	}

	@Test
	void retryWhenTheKeyIsForgottenShouldStillFindTheEntryButAnotherBodyIsThenANewAppend() {
		open(StorageMetrics.NONE);
		AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
		AppendKeys keys = keys(this.store, now::get);
		Appended first = keys.append("s-1", ExpectedLeaf.ANY, drafts("remembered"), KEY);
		assertThatExceptionOfType(IdempotencyKeyReusedException.class)
			.isThrownBy(() -> keys.append("s-1", ExpectedLeaf.ANY, drafts("another body"), KEY));
		now.set(now.get().plus(Duration.ofHours(2)));
		Appended retry = keys.append("s-1", ExpectedLeaf.ANY, drafts("remembered"), KEY);
		assertThat(retry.replayed()).isTrue();
		assertThat(retry.entries()).isEqualTo(first.entries());
		now.set(now.get().plus(Duration.ofHours(2)));
		Appended other = keys.append("s-1", ExpectedLeaf.ANY, drafts("another body"), KEY);
		assertThat(other.replayed()).isFalse();
		assertThat(count("remembered")).isOne();
		assertThat(count("another body")).isOne();
	}

	@Test
	void retryWhileTheFirstAttemptWaitsForItsFsyncShouldBeRefusedAndWriteNothing() throws Exception {
		CountDownLatch syncing = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicBoolean holdNext = new AtomicBoolean();
		open(new StorageMetrics() {
			@Override
			public void synced(long nanos) {
				if (holdNext.getAndSet(false)) {
					syncing.countDown();
					try {
						release.await(10, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			}
		});
		AppendKeys keys = keys(this.store, Clock.systemUTC());
		holdNext.set(true);
		CompletableFuture<Appended> first = CompletableFuture
			.supplyAsync(() -> keys.append("s-1", ExpectedLeaf.ANY, drafts("slow"), KEY));
		assertThat(syncing.await(10, TimeUnit.SECONDS)).isTrue();
		try {
			assertThatExceptionOfType(AppendInFlightException.class)
				.isThrownBy(() -> keys.append("s-1", ExpectedLeaf.ANY, drafts("slow"), KEY));
		}
		finally {
			release.countDown();
		}
		assertThat(first.get(10, TimeUnit.SECONDS).replayed()).isFalse();
		assertThat(keys.append("s-1", ExpectedLeaf.ANY, drafts("slow"), KEY).replayed()).isTrue();
		assertThat(count("slow")).isOne();
	}

	@Test
	void appendsUnderTwoKeysOfTheSameBodyShouldBothBeStored() {
		open(StorageMetrics.NONE);
		AppendKeys keys = keys(this.store, Clock.systemUTC());
		keys.append("s-1", ExpectedLeaf.ANY, drafts("twice"), new IdempotencyKey("one"));
		keys.append("s-1", ExpectedLeaf.ANY, drafts("twice"), new IdempotencyKey("two"));
		keys.append("s-1", ExpectedLeaf.ANY, drafts("twice"), null);
		assertThat(count("twice")).isEqualTo(3);
	}

	private void open(StorageMetrics metrics) {
		if (this.file == null) {
			this.file = SessionFiles.write(this.dir, "s.jsonl", HEADER + "\n" + entry("a", null, "one") + "\n");
		}
		this.store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Long.MAX_VALUE,
				Clock.systemUTC(), metrics, Duration.ofSeconds(1), false);
	}

	private static AppendKeys keys(FileSessionStore store, InstantSource clock) {
		return new AppendKeys(store, 100, Duration.ofHours(3), clock);
	}

	private static List<ObjectNode> drafts(String text) {
		return List.of(SessionFiles.userMessage(text));
	}

	private void appendAsAnotherProcess(String lines) {
		try {
			Files.writeString(this.file, lines, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	/** The lines of the file that hold this text. */
	private long count(String text) {
		try {
			return Files.readAllLines(this.file, StandardCharsets.UTF_8).stream().filter(line -> line.contains(text)).count();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}

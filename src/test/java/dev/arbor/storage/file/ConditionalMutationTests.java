package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.LeafMovedException;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Mutations on a precondition ({@code If-Match}, docs/API.md#versions-etag-and-if-match): {@link ExpectedLeaf} with one
 * leaf, several or none, and a delete that keeps the session when the leaf has moved.
 */
class ConditionalMutationTests {

	@TempDir
	Path dir;

	@Test
	void matchesWhenAnyShouldAcceptEveryLeafAndNull() {
		assertThat(ExpectedLeaf.ANY.matches("a")).isTrue();
		assertThat(ExpectedLeaf.ANY.matches(null)).isTrue();
	}

	@Test
	void matchesWhenOneLeafShouldAcceptOnlyThatLeaf() {
		assertThat(ExpectedLeaf.of("a").matches("a")).isTrue();
		assertThat(ExpectedLeaf.of("a").matches("b")).isFalse();
		assertThat(ExpectedLeaf.of("a").matches(null)).isFalse();
		assertThat(ExpectedLeaf.of(null).matches(null)).isTrue();
		assertThat(ExpectedLeaf.of(null).matches("a")).isFalse();
	}

	@Test
	void matchesWhenOneOfSeveralShouldAcceptEachOfThem() {
		ExpectedLeaf expected = ExpectedLeaf.oneOf(List.of("a", "b"));
		assertThat(expected.any()).isFalse();
		assertThat(expected.matches("a")).isTrue();
		assertThat(expected.matches("b")).isTrue();
		assertThat(expected.matches("c")).isFalse();
		assertThat(expected.matches(null)).isFalse();
	}

	@Test
	void matchesWhenOneOfIncludesNullShouldAcceptTheLeafBeforeTheFirstEntry() {
		ExpectedLeaf expected = ExpectedLeaf.oneOf(Arrays.asList("a", null));
		assertThat(expected.matches(null)).isTrue();
		assertThat(expected.matches("a")).isTrue();
		assertThat(expected.matches("b")).isFalse();
	}

	@Test
	void matchesWhenOneOfNothingShouldAcceptNoLeafNotEvenNull() {
		ExpectedLeaf none = ExpectedLeaf.oneOf(List.of());
		assertThat(none.any()).isFalse();
		assertThat(none.tags()).isEmpty();
		assertThat(none.matches("a")).isFalse();
		assertThat(none.matches(null)).isFalse();
	}

	@Test
	void oneOfShouldKeepACopyOfTheLeaves() {
		List<String> leaves = new ArrayList<>(List.of("a"));
		ExpectedLeaf expected = ExpectedLeaf.oneOf(leaves);
		leaves.set(0, "b");
		leaves.add("c");
		assertThat(expected.tags()).containsExactly("a");
		assertThat(expected.matches("b")).isFalse();
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> expected.tags().add("d"));
	}

	@Test
	void appendWhenExpectedLeafIsOneOfNothingShouldFailAndWriteNothing() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.append(sessionId, ExpectedLeaf.oneOf(List.of()),
						List.of(SessionFiles.userMessage("never written"))))
				.withMessage("The leaf of session " + sessionId + " is " + ids.get(2) + ", not one the request accepts")
				.satisfies(ex -> {
					assertThat(ex.sessionId()).isEqualTo(sessionId);
					assertThat(ex.expectedTags()).isEmpty();
					assertThat(ex.actualLeafId()).isEqualTo(ids.get(2));
				});
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
			assertThat(store.get(sessionId).entryCount()).isEqualTo(3);
			assertThat(store.get(sessionId).leafId()).isEqualTo(ids.get(2));
		}
	}

	@Test
	void appendWhenSessionIsEmptyAndExpectedLeafIsOneOfNothingShouldStillFail() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.append(sessionId, ExpectedLeaf.oneOf(List.of()),
						List.of(SessionFiles.userMessage("never written"))))
				.withMessage("The leaf of session " + sessionId + " is null (before the first entry), not one the request accepts");
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
			assertThat(store.get(sessionId).entryCount()).isZero();
		}
	}

	@Test
	void moveLeafAndBranchSummaryWhenExpectedLeafIsOneOfNothingShouldFailAndWriteNothing() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			ExpectedLeaf none = ExpectedLeaf.oneOf(List.of());
			assertThatExceptionOfType(LeafMovedException.class).isThrownBy(() -> store.moveLeaf(sessionId, none, ids.get(0)));
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.appendBranchSummary(sessionId, none, ids.get(0), "summary", null, null));
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
			assertThat(store.get(sessionId).leafId()).isEqualTo(ids.get(2));
		}
	}

	@Test
	void appendWhenExpectedLeafIsOneOfSeveralIncludingTheLeafShouldSucceed() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			EntryLine appended = store
				.append(sessionId, ExpectedLeaf.oneOf(List.of("x", ids.get(2))), List.of(SessionFiles.userMessage("fourth")))
				.get(0);
			assertThat(appended.parentId()).isEqualTo(ids.get(2));
			assertThat(store.get(sessionId).leafId()).isEqualTo(appended.id());
			assertThat(store.get(sessionId).entryCount()).isEqualTo(4);
		}
	}

	@Test
	void appendWhenNoneOfSeveralExpectedLeavesIsTheLeafShouldNameThemAll() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.append(sessionId, ExpectedLeaf.oneOf(Arrays.asList(ids.get(0), null)),
						List.of(SessionFiles.userMessage("never written"))))
				.withMessage("The leaf of session " + sessionId + " is " + ids.get(2) + ", not the one tagged \"" + ids.get(0)
						+ "\" or \"root\"")
				.satisfies(ex -> assertThat(ex.expectedTags()).containsExactly(ids.get(0), "root"));
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
		}
	}

	@Test
	void deleteWhenExpectedLeafIsStaleShouldThrowLeafMovedAndKeepFileAndSidecar() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(1));
			Path file = store.get(sessionId).file();
			assertThat(StorageFiles.leafSidecar(file)).exists();
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.delete(sessionId, ExpectedLeaf.of(ids.get(2))))
				.satisfies(ex -> {
					assertThat(ex.expectedTags()).containsExactly(ids.get(2));
					assertThat(ex.actualLeafId()).isEqualTo(ids.get(1));
				});
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
		}
		try (FileSessionStore store = newStore()) {
			assertThat(store.list()).hasSize(1);
		}
	}

	@Test
	void deleteWhenExpectedLeafIsOneOfNothingShouldThrowLeafMovedAndKeepTheFile() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			appendThree(store, sessionId);
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.delete(sessionId, ExpectedLeaf.oneOf(List.of())));
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
		}
	}

	@Test
	void deleteWhenExpectedLeafIsStaleShouldKeepTheSessionUsable() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(1));
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.delete(sessionId, ExpectedLeaf.of(ids.get(2))));
			assertThat(store.list()).extracting(SessionInfo::id).containsExactly(sessionId);
			assertThatExceptionOfType(LeafMovedException.class) // again: the same answer, not a lock of its own
				.isThrownBy(() -> store.delete(sessionId, ExpectedLeaf.of(ids.get(2))));
			assertThat(store.get(sessionId).leafId()).isEqualTo(ids.get(1));
			EntryLine appended = store
				.append(sessionId, ExpectedLeaf.of(ids.get(1)), List.of(SessionFiles.userMessage("still here")))
				.get(0);
			assertThat(appended.parentId()).isEqualTo(ids.get(1));
		}
	}

	@Test
	void deleteWhenExpectedLeafIsCurrentShouldDeleteFileAndSidecar() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(1));
			Path file = store.get(sessionId).file();
			store.delete(sessionId, ExpectedLeaf.of(ids.get(1)));
			assertThat(file).doesNotExist();
			assertThat(StorageFiles.leafSidecar(file)).doesNotExist();
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
			assertThat(store.list()).isEmpty();
			assertThatExceptionOfType(SessionNotFoundException.class).isThrownBy(() -> store.get(sessionId));
		}
		try (FileSessionStore store = newStore()) {
			assertThat(store.list()).isEmpty();
		}
	}

	@Test
	void deleteWhenExpectedLeafIsOneOfSeveralIncludingTheLeafShouldDelete() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			store.delete(sessionId, ExpectedLeaf.oneOf(List.of("x", ids.get(2))));
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
			assertThatExceptionOfType(SessionNotFoundException.class).isThrownBy(() -> store.get(sessionId));
		}
	}

	@Test
	void deleteWhenEmptySessionAndExpectedLeafIsNullShouldDelete() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			store.delete(sessionId, ExpectedLeaf.of(null));
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
		}
	}

	@Test
	void deleteWhenAnyShouldDeleteWhateverTheLeaf() {
		try (FileSessionStore store = newStore()) {
			String sessionId = store.create("/w", null, null).id();
			List<String> ids = appendThree(store, sessionId);
			store.moveLeaf(sessionId, ExpectedLeaf.ANY, ids.get(0));
			store.delete(sessionId, ExpectedLeaf.ANY);
			assertThat(SessionFiles.snapshot(this.dir)).isEmpty();
			assertThatExceptionOfType(SessionNotFoundException.class)
				.isThrownBy(() -> store.delete(sessionId, ExpectedLeaf.ANY));
		}
	}

	@Test
	void deleteWhenAnotherProcessAppendedShouldCompareWithTheLeafOnDisk() throws IOException {
		String sessionId;
		List<String> ids;
		Path file;
		try (FileSessionStore store = newStore()) {
			sessionId = store.create("/w", null, null).id();
			ids = appendThree(store, sessionId);
			file = store.get(sessionId).file();
		}
		try (FileSessionStore store = newStore()) {
			String leaf = store.read(sessionId, tree -> tree.leafId()); // loaded, not locked
			assertThat(leaf).isEqualTo(ids.get(2));
			Files.write(file, (SessionFiles.entry("0f0f0f0f", ids.get(2), "someone else") + "\n").getBytes(StandardCharsets.UTF_8),
					StandardOpenOption.APPEND);
			Map<String, String> before = SessionFiles.snapshot(this.dir);
			assertThatExceptionOfType(LeafMovedException.class)
				.isThrownBy(() -> store.delete(sessionId, ExpectedLeaf.of(ids.get(2))))
				.satisfies(ex -> assertThat(ex.actualLeafId()).isEqualTo("0f0f0f0f"));
			assertThat(SessionFiles.snapshot(this.dir)).isEqualTo(before);
		}
	}

	private FileSessionStore newStore() {
		return new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
	}

	/** Three entries in one chain; returns their ids in order. */
	private static List<String> appendThree(SessionStore store, String sessionId) {
		return SessionFiles.ids(store.append(sessionId, ExpectedLeaf.ANY, List.of(SessionFiles.userMessage("first"),
				SessionFiles.userMessage("second"), SessionFiles.userMessage("third"))));
	}

}

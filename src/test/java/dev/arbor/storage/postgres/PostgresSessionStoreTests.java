package dev.arbor.storage.postgres;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.arbor.Fixtures;
import dev.arbor.TestSessions;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.SessionLines;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.file.FsyncPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The PostgreSQL store below the API: two stores on one database are two replicas, each with its cache of trees.
 * What one writes, the other reads at once; exports keep the imported bytes; a failed write leaves nothing behind.
 */
@RequiresPostgres
class PostgresSessionStoreTests {

	StoreDatabase database;

	@TempDir
	Path files;

	@BeforeEach
	void database() {
		this.database = new StoreDatabase();
	}

	@AfterEach
	void close() throws Exception {
		this.database.close();
	}

	@Test
	void whatOneReplicaWritesTheOtherShouldReadAtOnce() {
		PostgresSessionStore a = this.database.store();
		PostgresSessionStore b = this.database.store();
		String id = a.importSession(TestSessions.bytes(TestSessions.OMP_V3), false).id();
		int imported = b.read(id, SessionTree::size);
		List<EntryLine> appended = a.append(id, ExpectedLeaf.ANY, List.of(user("one"), user("two")));
		assertThat(b.read(id, SessionTree::size)).isEqualTo(imported + 2);
		assertThat(b.read(id, SessionTree::leafId)).isEqualTo(appended.get(1).id());
		a.moveLeaf(id, ExpectedLeaf.ANY, appended.get(0).id());
		assertThat(b.read(id, SessionTree::leafId)).as("a leaf move alone").isEqualTo(appended.get(0).id());
		EntryLine onB = b.append(id, ExpectedLeaf.of(appended.get(0).id()), List.of(user("three"))).get(0);
		assertThat(onB.parentId()).isEqualTo(appended.get(0).id());
		List<EntryLine> children = a.read(id, tree -> tree.getChildren(appended.get(0).id()));
		assertThat(children).extracting(EntryLine::id)
			.containsExactly(appended.get(1).id(), onB.id());
		assertThatThrownBy(() -> a.append(id, ExpectedLeaf.of(appended.get(1).id()), List.of(user("stale"))))
			.as("If-Match against the leaf B moved").isInstanceOf(dev.arbor.storage.LeafMovedException.class);
	}

	@Test
	void anExportShouldBeTheFileStoresExportOfTheSameImport() throws IOException {
		assertSameExports(List.of(TestSessions.bytes(TestSessions.OMP_V3), TestSessions.bytes(TestSessions.PI_V1),
				TestSessions.bytes(TestSessions.PI_V2)));
	}

	@Test
	void anExportOfTheUpstreamSamplesShouldBeTheFileStoresExportOfTheSameImport() throws IOException {
		// the two large upstream files are one session, of one id, in two formats
		assertSameExports(List.of(Fixtures.bytes(Fixtures.OMP_V3), Fixtures.bytes(Fixtures.PI_V1)));
	}

	/** Each content imported into a file store of its own and into PostgreSQL: the same export from both. */
	private void assertSameExports(List<byte[]> contents) throws IOException {
		PostgresSessionStore postgres = this.database.store();
		for (int i = 0; i < contents.size(); i++) {
			try (FileSessionStore file = new FileSessionStore(this.files.resolve("store-" + i), FsyncPolicy.NEVER,
					Long.MAX_VALUE, Clock.systemUTC())) {
				String id = file.importSession(contents.get(i), false).id();
				postgres.importSession(contents.get(i), false);
				byte[] fromFile = export(file, id);
				assertThat(export(postgres, id)).isEqualTo(fromFile);
				assertThat(export(this.database.store(), id)).as("read by another replica, loaded from the rows")
					.isEqualTo(fromFile);
				postgres.delete(id, ExpectedLeaf.ANY);
			}
		}
	}

	@Test
	void aSessionDeletedAndImportedAgainShouldBeReadAfreshByAReplicaThatCachedIt() {
		PostgresSessionStore a = this.database.store();
		PostgresSessionStore b = this.database.store();
		byte[] whole = TestSessions.bytes(TestSessions.OMP_V3);
		String id = a.importSession(whole, false).id();
		a.append(id, ExpectedLeaf.ANY, List.of(user("one"), user("two"), user("three")));
		int cached = b.read(id, SessionTree::size);
		a.delete(id, ExpectedLeaf.ANY);
		byte[] shorter = firstLines(whole, 4); // the title slot, the header and two entries
		a.importSession(shorter, false);
		assertThat(b.read(id, SessionTree::size)).as("not the tree of the deleted session").isEqualTo(2)
			.isLessThan(cached);
	}

	@Test
	void aWriteThatFailsInItsTransactionShouldLeaveTheRowsAndTheTreeAsTheyWere() {
		PostgresSessionStore a = this.database.store();
		String id = a.create("/work", "t", null).id();
		String first = a.append(id, ExpectedLeaf.ANY, List.of(user("one"))).get(0).id();
		AtomicBoolean fail = new AtomicBoolean(true);
		a.addChangeListener(change -> {
			if (fail.getAndSet(false)) {
				throw new IllegalStateException("a listener failed after the rows were written");
			}
		});
		assertThatThrownBy(() -> a.append(id, ExpectedLeaf.ANY, List.of(user("lost")))).isInstanceOf(
				IllegalStateException.class);
		assertThat(a.read(id, SessionTree::size)).isEqualTo(1);
		assertThat(this.database.jdbc.queryForObject("SELECT count(*) FROM arbor_entry WHERE session_id = ?",
				Integer.class, id)).isEqualTo(1);
		assertThat(this.database.store().read(id, SessionTree::leafId)).isEqualTo(first);
		EntryLine next = a.append(id, ExpectedLeaf.of(first), List.of(user("two"))).get(0);
		assertThat(next.parentId()).isEqualTo(first);
	}

	@Test
	void idleTreesBeyondTheBudgetShouldBeDroppedAndReadAgainWhenNeeded() {
		PostgresSessionStore store = this.database.store(1);
		String one = store.importSession(TestSessions.bytes(TestSessions.OMP_V3), false).id();
		String two = store.importSession(TestSessions.bytes(TestSessions.OMP_V3), false, true).id();
		int size = store.read(one, SessionTree::size);
		store.read(two, SessionTree::size);
		assertThat(store.loadedSessions()).as("only the tree just used").isEqualTo(1);
		assertThat(store.read(one, SessionTree::size)).isEqualTo(size);
	}

	private static ObjectNode user(String text) {
		ObjectNode entry = Json.newObject().put("type", "message");
		entry.putObject("message").put("role", "user").put("content", text);
		return entry;
	}

	private static byte[] export(SessionStore store, String id) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		store.read(id, SessionLines::of).writeTo(out);
		return out.toByteArray();
	}

	/** The first lines of a session file, each with its newline. */
	private static byte[] firstLines(byte[] content, int lines) {
		int end = 0;
		for (int line = 0; line < lines; line++) {
			while (content[end] != '\n') {
				end++;
			}
			end++;
		}
		return Arrays.copyOf(content, end);
	}

}

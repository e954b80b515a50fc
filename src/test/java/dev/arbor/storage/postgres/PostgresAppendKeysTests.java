package dev.arbor.storage.postgres;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.AppendKeys;
import dev.arbor.storage.Appended;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import dev.arbor.storage.IdempotencyKeyReusedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Idempotency keys of appends across replicas (docs/API.md#idempotent-appends): two stores on one database, each with
 * its own {@link AppendKeys}, are two replicas that share no memory. A retry on the other replica finds the entries,
 * and the key's body is in the database, so that the other replica refuses the key with another body.
 */
@RequiresPostgres
class PostgresAppendKeysTests {

	private static final IdempotencyKey KEY = new IdempotencyKey("8e03978e-40d5-43e8-bc93-6894a57f9324");

	StoreDatabase database;

	@BeforeEach
	void database() {
		this.database = new StoreDatabase();
	}

	@AfterEach
	void close() throws Exception {
		this.database.close();
	}

	@Test
	void retryOnAnotherReplicaShouldAnswerTheEntriesTheFirstStoredAndWriteNothing() {
		PostgresSessionStore a = this.database.store();
		PostgresSessionStore b = this.database.store();
		String id = a.create("/w", null, null).id();
		Appended first = keys(a).append(id, ExpectedLeaf.of(null), drafts("one", "two"), KEY);
		Appended retry = keys(b).append(id, ExpectedLeaf.of(null), drafts("one", "two"), KEY);
		assertThat(first.replayed()).isFalse();
		assertThat(retry.replayed()).isTrue();
		assertThat(retry.entries()).isEqualTo(first.entries());
		assertThat(a.read(id, SessionTree::size)).isEqualTo(2);
	}

	@Test
	void keyWithAnotherBodyOnAnotherReplicaShouldBeRefusedAndWriteNothing() {
		PostgresSessionStore a = this.database.store();
		PostgresSessionStore b = this.database.store();
		String id = a.create("/w", null, null).id();
		keys(a).append(id, ExpectedLeaf.ANY, drafts("one"), KEY);
		assertThatExceptionOfType(IdempotencyKeyReusedException.class)
			.isThrownBy(() -> keys(b).append(id, ExpectedLeaf.ANY, drafts("another body"), KEY));
		assertThat(b.read(id, SessionTree::size)).isOne();
		assertThat(keyRows()).isOne();
	}

	@Test
	void attemptsThatRaceOnTwoReplicasShouldAppendOnce() throws Exception {
		PostgresSessionStore a = this.database.store();
		PostgresSessionStore b = this.database.store();
		String id = a.create("/w", null, null).id();
		AppendKeys onA = keys(a);
		AppendKeys onB = keys(b);
		for (int round = 0; round < 10; round++) {
			IdempotencyKey key = new IdempotencyKey("race-" + round);
			List<ObjectNode> drafts = drafts("round " + round);
			CompletableFuture<Appended> first = CompletableFuture
				.supplyAsync(() -> onA.append(id, ExpectedLeaf.ANY, drafts, key));
			CompletableFuture<Appended> second = CompletableFuture
				.supplyAsync(() -> onB.append(id, ExpectedLeaf.ANY, drafts, key));
			List<EntryLine> one = first.get(10, TimeUnit.SECONDS).entries();
			List<EntryLine> other = second.get(10, TimeUnit.SECONDS).entries();
			assertThat(other).isEqualTo(one);
		}
		assertThat(a.read(id, SessionTree::size)).isEqualTo(10);
	}

	private static AppendKeys keys(PostgresSessionStore store) {
		return new AppendKeys(store, 100, Duration.ofHours(24), Clock.systemUTC());
	}

	private int keyRows() {
		Integer rows = this.database.jdbc.queryForObject("SELECT count(*) FROM arbor_append_key", Integer.class);
		return (rows != null) ? rows : 0;
	}

	private static List<ObjectNode> drafts(String... texts) {
		List<ObjectNode> drafts = new java.util.ArrayList<>();
		for (String text : texts) {
			ObjectNode draft = Json.newObject().put("type", "message");
			draft.putObject("message").put("role", "user").put("content", text);
			drafts.add(draft);
		}
		return drafts;
	}

}

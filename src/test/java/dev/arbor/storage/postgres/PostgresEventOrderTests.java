package dev.arbor.storage.postgres;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.arbor.events.EventSink;
import dev.arbor.events.EventType;
import dev.arbor.events.SessionEvent;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.storage.ExpectedLeaf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events of concurrent writers on two replicas: every replica delivers the same events in the same order, ids
 * increasing, each session's in the order of its changes, and a replay from any id gives exactly what came after.
 */
@RequiresPostgres
class PostgresEventOrderTests {

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
	void everyReplicaShouldDeliverEveryEventInOneOrder() throws Exception {
		StoreDatabase.Replica a = this.database.replica(Long.MAX_VALUE);
		StoreDatabase.Replica b = this.database.replica(Long.MAX_VALUE);
		Collected onA = new Collected();
		Collected onB = new Collected();
		a.bus().subscribe(null, null, onA, replay -> {
		});
		b.bus().subscribe(null, null, onB, replay -> {
		});
		List<String> sessions = new ArrayList<>();
		for (int s = 0; s < 6; s++) {
			sessions.add(((s % 2 == 0) ? a : b).store().create("/work", "s" + s, null).id());
		}
		ExecutorService writers = Executors.newFixedThreadPool(12);
		List<Future<List<String>>> written = new ArrayList<>();
		for (int w = 0; w < 12; w++) {
			StoreDatabase.Replica replica = (w % 2 == 0) ? a : b;
			String sessionId = sessions.get(w % sessions.size());
			int writer = w;
			written.add(writers.submit(() -> {
				List<String> ids = new ArrayList<>();
				for (int i = 0; i < 25; i++) {
					for (EntryLine entry : replica.store()
						.append(sessionId, ExpectedLeaf.ANY, List.of(user("w" + writer + " " + i)))) {
						ids.add(entry.id());
					}
				}
				return ids;
			}));
		}
		for (Future<List<String>> each : written) {
			each.get(60, TimeUnit.SECONDS);
		}
		writers.shutdown();
		int expected = 6 + 12 * 25 * 2; // session_created, then entry_appended and leaf_changed per append
		onA.await(expected);
		onB.await(expected);
		assertThat(onB.ids()).as("the same events in the same order on both").isEqualTo(onA.ids());
		assertThat(onA.ids()).as("increasing").isSorted().doesNotHaveDuplicates();
		for (String sessionId : sessions) {
			List<String> announced = onA.appendedIds(sessionId);
			List<String> stored = a.store().read(sessionId, tree -> tree.getEntries().stream().map(EntryLine::id).toList());
			assertThat(announced).as("a session's entries announced in the order they were stored").isEqualTo(stored);
		}
		long from = onA.ids().get(100);
		List<SessionEvent> replayed = new ArrayList<>();
		b.bus().subscribe(null, from, new Collected(), replayed::addAll);
		assertThat(replayed).extracting(SessionEvent::id).isEqualTo(onA.ids().subList(101, onA.ids().size()));
	}

	@Test
	void aSubscriberOfAReplicaThatLagsBehindShouldGetWhatComesAfterItsPlaceAndNothingBefore() throws Exception {
		StoreDatabase.Replica a = this.database.replica(Long.MAX_VALUE);
		StoreDatabase.Replica lagging = this.database.stoppedReplica(Long.MAX_VALUE);
		Collected onA = new Collected();
		a.bus().subscribe(null, null, onA, replay -> {
		});
		String sessionId = a.store().create("/work", "t", null).id();
		a.store().append(sessionId, ExpectedLeaf.ANY, List.of(user("one")));
		onA.await(3);
		long seenOnA = onA.ids().get(1); // the client saw one's entry_appended on A, then came to the lagging replica
		Collected resumed = new Collected();
		List<SessionEvent> replayed = new ArrayList<>();
		lagging.bus().subscribe(null, seenOnA, resumed, replayed::addAll);
		Collected fresh = new Collected();
		lagging.bus().subscribe(null, null, fresh, replay -> {
		});
		a.store().append(sessionId, ExpectedLeaf.ANY, List.of(user("two")));
		onA.await(5);
		lagging.notifications().start();
		resumed.await(3);
		assertThat(replayed).as("not a resync: the id is real, only ahead of this replica").isEmpty();
		assertThat(resumed.ids()).isEqualTo(onA.ids().subList(2, 5));
		fresh.await(2);
		assertThat(fresh.ids()).as("only what was committed after it subscribed").isEqualTo(onA.ids().subList(3, 5));
	}

	private static ObjectNode user(String text) {
		ObjectNode entry = Json.newObject().put("type", "message");
		entry.putObject("message").put("role", "user").put("content", text);
		return entry;
	}

	/** Everything a subscriber was handed, in order. */
	static final class Collected implements EventSink {

		private final List<SessionEvent> events = Collections.synchronizedList(new ArrayList<>());

		@Override
		public boolean offer(SessionEvent event) {
			this.events.add(event);
			return true;
		}

		void await(int count) throws InterruptedException {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
			while (this.events.size() < count && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			assertThat(this.events).hasSize(count);
		}

		List<Long> ids() {
			synchronized (this.events) {
				return this.events.stream().map(SessionEvent::id).toList();
			}
		}

		List<String> appendedIds(String sessionId) {
			Map<Long, String> ids = new LinkedHashMap<>();
			synchronized (this.events) {
				for (SessionEvent event : this.events) {
					if (event.type() == EventType.ENTRY_APPENDED && sessionId.equals(event.sessionId())) {
						ids.put(event.id(), Json.MAPPER.readTree(event.data()).get("entry").get("id").asString());
					}
				}
			}
			return new ArrayList<>(ids.values());
		}

	}

}

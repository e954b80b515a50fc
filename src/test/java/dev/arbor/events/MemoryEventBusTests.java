package dev.arbor.events;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event bus (docs/API.md#events-server-sent-events): numbering, routing to the subscribers of a session and of all
 * sessions, the replay buffers behind {@code Last-Event-ID}, forgetting subscribers that are gone and sessions that
 * were deleted, and subscribing atomically while others publish.
 */
class MemoryEventBusTests {

	@Test
	void publishShouldNumberEventsStrictlyIncreasingFromAboveTheMicrosecondsAtConstruction() {
		long before = System.currentTimeMillis() * 1000;
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		List<Long> ids = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			ids.add(bus.publish(EventType.ENTRY_APPENDED, (i % 2 == 0) ? "s1" : "s2", data(i)).id());
		}
		assertThat(ids.get(0)).isGreaterThan(before);
		assertThat(ids).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void publishShouldPutSessionIdFirstInTheData() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		ObjectNode data = Json.newObject().put("leafId", "e1").put("oldLeafId", (String) null);
		SessionEvent event = bus.publish(EventType.LEAF_CHANGED, "s1", data);
		assertThat(event.data()).isEqualTo("{\"sessionId\":\"s1\",\"leafId\":\"e1\",\"oldLeafId\":null}");
		assertThat(event.sessionId()).isEqualTo("s1");
		assertThat(event.type()).isEqualTo(EventType.LEAF_CHANGED);
		assertThat(Json.parseObject(event.data().getBytes(StandardCharsets.UTF_8)).get("sessionId").asString())
			.isEqualTo("s1");
	}

	@Test
	void publishShouldRenderTheServerSentEventsFrameOnce() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		SessionEvent event = bus.publish(EventType.ENTRY_APPENDED, "s1", Json.newObject().put("n", 1));
		assertThat(new String(event.frame(), StandardCharsets.UTF_8))
			.isEqualTo("id:" + event.id() + "\nevent:entry_appended\ndata:{\"sessionId\":\"s1\",\"n\":1}\n\n");
	}

	@Test
	void publishRenderedShouldKeepTheDataAsGiven() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		String data = "{\"sessionId\":\"s1\",\"entry\":{\"b\":2.50,\"a\":\"\\u00e9\"}}";
		assertThat(bus.publishRendered(EventType.ENTRY_APPENDED, "s1", data).data()).isEqualTo(data);
	}

	@Test
	void subscribeToASessionShouldReceiveOnlyThatSessionsEventsAndAllSessionsSubscriberEverything() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		Collecting s1 = new Collecting();
		Collecting s2 = new Collecting();
		Collecting all = new Collecting();
		bus.subscribe("s1", null, s1, s1::replayed);
		bus.subscribe("s2", null, s2, s2::replayed);
		bus.subscribe(null, null, all, all::replayed);
		SessionEvent a = bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		SessionEvent b = bus.publish(EventType.ENTRY_APPENDED, "s2", data(2));
		SessionEvent c = bus.publish(EventType.LEAF_CHANGED, "s3", data(3));
		SessionEvent d = bus.publish(EventType.LEAF_CHANGED, "s1", data(4));
		assertThat(s1.live()).containsExactly(a, d);
		assertThat(s2.live()).containsExactly(b);
		assertThat(all.live()).containsExactly(a, b, c, d);
		assertThat(s1.replay()).isEmpty();
		assertThat(all.replay()).isEmpty();
		assertThat(bus.subscribers()).isEqualTo(3);
	}

	@Test
	void subscribeWithoutLastEventIdShouldReplayNothing() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		bus.publish(EventType.ENTRY_APPENDED, "s1", data(2));
		Collecting session = new Collecting();
		Collecting all = new Collecting();
		bus.subscribe("s1", null, session, session::replayed);
		bus.subscribe(null, null, all, all::replayed);
		assertThat(session.replayCalls()).isEqualTo(1);
		assertThat(session.replay()).isEmpty();
		assertThat(all.replay()).isEmpty();
	}

	@Test
	void subscribeWithLastEventIdShouldReplayExactlyTheLaterEventsOfTheSession() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		SessionEvent first = bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		SessionEvent other = bus.publish(EventType.ENTRY_APPENDED, "s2", data(2));
		SessionEvent second = bus.publish(EventType.ENTRY_APPENDED, "s1", data(3));
		SessionEvent third = bus.publish(EventType.LEAF_CHANGED, "s1", data(4));
		Collecting session = new Collecting();
		bus.subscribe("s1", first.id(), session, session::replayed);
		assertThat(session.replay()).containsExactly(second, third);
		Collecting fromOther = new Collecting();
		bus.subscribe("s1", other.id(), fromOther, fromOther::replayed); // an id of another session's stream
		assertThat(fromOther.replay()).containsExactly(second, third);
		Collecting upToDate = new Collecting();
		bus.subscribe("s1", third.id(), upToDate, upToDate::replayed);
		assertThat(upToDate.replay()).isEmpty();
		SessionEvent fourth = bus.publish(EventType.ENTRY_APPENDED, "s1", data(5));
		assertThat(session.live()).containsExactly(fourth);
		assertThat(upToDate.live()).containsExactly(fourth);
	}

	@Test
	void subscribeToAllWithLastEventIdShouldReplayExactlyTheLaterEventsOfEverySession() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		SessionEvent a = bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		SessionEvent b = bus.publish(EventType.ENTRY_APPENDED, "s2", data(2));
		SessionEvent c = bus.publish(EventType.SESSION_CREATED, "s3", data(3));
		Collecting all = new Collecting();
		bus.subscribe(null, a.id(), all, all::replayed);
		assertThat(all.replay()).containsExactly(b, c);
		Collecting fromBefore = new Collecting();
		bus.subscribe(null, a.id() - 1, fromBefore, fromBefore::replayed);
		assertThat(fromBefore.replay()).containsExactly(a, b, c);
	}

	@Test
	void subscribeWithLastEventIdToASessionWithoutEventsShouldReplayNothing() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		SessionEvent other = bus.publish(EventType.ENTRY_APPENDED, "s2", data(1));
		Collecting session = new Collecting();
		bus.subscribe("s1", other.id() - 1, session, session::replayed);
		assertThat(session.replay()).isEmpty();
		SessionEvent mine = bus.publish(EventType.ENTRY_APPENDED, "s1", data(2));
		assertThat(session.live()).containsExactly(mine);
	}

	@Test
	void replayShouldKeepOnlyTheLatestReplaySizeEventsPerSessionAndForAllSessions() {
		MemoryEventBus bus = new MemoryEventBus(3, Long.MAX_VALUE);
		List<SessionEvent> s1 = new ArrayList<>();
		List<SessionEvent> all = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			SessionEvent event = bus.publish(EventType.ENTRY_APPENDED, "s1", data(i));
			s1.add(event);
			all.add(event);
			all.add(bus.publish(EventType.ENTRY_APPENDED, "s2", data(i)));
		}
		assertThat(replayOf(bus, "s1", s1.get(1).id())).containsExactlyElementsOf(s1.subList(2, 5));
		assertThat(replayOf(bus, null, all.get(6).id())).containsExactlyElementsOf(all.subList(7, 10));
		assertThat(replayOf(bus, "s1", s1.get(3).id())).containsExactly(s1.get(4));
		assertThat(replayOf(bus, "s1", s1.get(0).id())).as("its next event is gone").singleElement()
			.satisfies(resync -> assertResync(resync, "s1", s1.get(0).id(), all.get(9).id()));
		assertThat(replayOf(bus, null, all.get(5).id())).singleElement()
			.satisfies(resync -> assertResync(resync, null, all.get(5).id(), all.get(9).id()));
	}

	@Test
	void subscribeWithAnIdOfAnEarlierRunShouldResyncAndThenDeliver() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		SessionEvent first = bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		long earlierRun = first.id() - 1_000_000; // ids of an earlier run are below this run's
		for (String sessionId : new String[] { "s1", "s2", null }) {
			Collecting subscriber = new Collecting();
			bus.subscribe(sessionId, earlierRun, subscriber, subscriber::replayed);
			assertThat(subscriber.replay()).singleElement()
				.satisfies(resync -> assertResync(resync, sessionId, earlierRun, first.id()));
			bus.unsubscribe(sessionId, subscriber);
		}
		Collecting fromTheFuture = new Collecting();
		bus.subscribe("s1", first.id() + 1_000, fromTheFuture, fromTheFuture::replayed);
		assertThat(fromTheFuture.replay()).extracting(SessionEvent::type).containsExactly(EventType.RESYNC);
		Collecting current = new Collecting();
		bus.subscribe("s2", first.id(), current, current::replayed);
		assertThat(current.replay()).as("nothing of s2 was published after it").isEmpty();
		SessionEvent next = bus.publish(EventType.ENTRY_APPENDED, "s2", data(2));
		assertThat(current.live()).containsExactly(next);
	}

	private static void assertResync(SessionEvent resync, String sessionId, long lastEventId, long newestId) {
		assertThat(resync.type()).isEqualTo(EventType.RESYNC);
		assertThat(resync.id()).as("resumes from the newest event").isEqualTo(newestId);
		JsonNode data = Json.MAPPER.readTree(resync.data());
		assertThat(data.get("sessionId").isNull() ? null : data.get("sessionId").asString()).isEqualTo(sessionId);
		assertThat(data.get("lastEventId").asLong()).isEqualTo(lastEventId);
		assertThat(data.get("reason").asString()).isEqualTo("replay-unavailable");
	}

	@Test
	void replayBeyondItsMemoryShouldForgetTheSessionsQuietForLongest() {
		MemoryEventBus probe = new MemoryEventBus(16, Long.MAX_VALUE);
		long frame = probe.publish(EventType.ENTRY_APPENDED, "s1", data(1)).frame().length;
		// room for about three frames of the same size, across all sessions
		MemoryEventBus bus = new MemoryEventBus(16, 3 * frame + frame / 2);
		SessionEvent s1 = bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		SessionEvent s2 = bus.publish(EventType.ENTRY_APPENDED, "s2", data(2));
		SessionEvent s3 = bus.publish(EventType.ENTRY_APPENDED, "s3", data(3));
		SessionEvent latest = bus.publish(EventType.ENTRY_APPENDED, "s2", data(4));
		assertThat(replayOf(bus, "s1", s1.id() - 1)).as("the quietest session is forgotten: its client refetches")
			.extracting(SessionEvent::type)
			.containsExactly(EventType.RESYNC);
		assertThat(replayOf(bus, "s2", s2.id() - 1)).hasSize(2);
		assertThat(replayOf(bus, "s3", s3.id() - 1)).containsExactly(s3);
		assertThat(replayOf(bus, null, s1.id())).as("the stream of all sessions has as much again, its newest")
			.containsExactly(s2, s3, latest);
		assertThat(replayOf(bus, null, s1.id() - 1)).extracting(SessionEvent::type).containsExactly(EventType.RESYNC);
	}

	private static List<SessionEvent> replayOf(MemoryEventBus bus, String sessionId, long lastEventId) {
		Collecting subscriber = new Collecting();
		bus.subscribe(sessionId, lastEventId, subscriber, subscriber::replayed);
		bus.unsubscribe(sessionId, subscriber);
		return subscriber.replay();
	}

	@Test
	void replayWhenReplaySizeIsZeroShouldReplayNothingButStillDeliver() {
		MemoryEventBus bus = new MemoryEventBus(0, Long.MAX_VALUE);
		bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		Collecting session = new Collecting();
		bus.subscribe("s1", 0L, session, session::replayed);
		assertThat(session.replay()).extracting(SessionEvent::type).containsExactly(EventType.RESYNC);
		SessionEvent live = bus.publish(EventType.ENTRY_APPENDED, "s1", data(2));
		assertThat(session.live()).containsExactly(live);
	}

	@Test
	void publishWhenASinkRefusesAnEventShouldForgetThatSink() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		AtomicInteger offered = new AtomicInteger();
		EventSink refusing = (event) -> offered.incrementAndGet() < 2; // takes one, refuses the second
		Collecting session = new Collecting();
		EventSink refusingAll = (event) -> {
			offered.incrementAndGet();
			return false;
		};
		bus.subscribe("s1", null, refusing, (replay) -> {
		});
		bus.subscribe("s1", null, session, session::replayed);
		bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		bus.publish(EventType.ENTRY_APPENDED, "s1", data(2));
		assertThat(offered).hasValue(2);
		assertThat(bus.subscribers()).isEqualTo(1);
		bus.publish(EventType.ENTRY_APPENDED, "s1", data(3));
		assertThat(offered).hasValue(2);
		assertThat(session.live()).hasSize(3);
		bus.subscribe(null, null, refusingAll, (replay) -> {
		});
		assertThat(bus.subscribers()).isEqualTo(2);
		bus.publish(EventType.ENTRY_APPENDED, "s2", data(4));
		bus.publish(EventType.ENTRY_APPENDED, "s2", data(5));
		assertThat(offered).hasValue(3);
		assertThat(bus.subscribers()).isEqualTo(1);
	}

	@Test
	void publishWhenTheOnlySinkOfASessionRefusesShouldLeaveNoSubscriber() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		bus.subscribe("s1", null, (event) -> false, (replay) -> {
		});
		assertThat(bus.subscribers()).isEqualTo(1);
		bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		assertThat(bus.subscribers()).isZero();
	}

	@Test
	void unsubscribeShouldStopDeliveryToThatSinkOnly() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		Collecting gone = new Collecting();
		Collecting stays = new Collecting();
		Collecting allGone = new Collecting();
		bus.subscribe("s1", null, gone, gone::replayed);
		bus.subscribe("s1", null, stays, stays::replayed);
		bus.subscribe(null, null, allGone, allGone::replayed);
		bus.unsubscribe("s1", gone);
		bus.unsubscribe(null, allGone);
		bus.unsubscribe("s9", stays); // not subscribed there: nothing happens
		SessionEvent event = bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		assertThat(gone.live()).isEmpty();
		assertThat(allGone.live()).isEmpty();
		assertThat(stays.live()).containsExactly(event);
		assertThat(bus.subscribers()).isEqualTo(1);
	}

	@Test
	void publishOfSessionDeletedShouldDeliverItThenForgetTheSessionsBufferAndSubscribers() {
		MemoryEventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		SessionEvent before = bus.publish(EventType.ENTRY_APPENDED, "s1", data(1));
		Collecting session = new Collecting();
		Collecting other = new Collecting();
		Collecting all = new Collecting();
		bus.subscribe("s1", null, session, session::replayed);
		bus.subscribe("s2", null, other, other::replayed);
		bus.subscribe(null, null, all, all::replayed);
		SessionEvent deleted = bus.publish(EventType.SESSION_DELETED, "s1", Json.newObject());
		assertThat(session.live()).containsExactly(deleted);
		assertThat(all.live()).containsExactly(deleted);
		assertThat(other.live()).isEmpty();
		assertThat(bus.subscribers()).isEqualTo(2); // s1's subscriber is gone, s2's and the global one stay
		SessionEvent after = bus.publish(EventType.SESSION_CREATED, "s1", data(2));
		assertThat(session.live()).containsExactly(deleted);
		assertThat(all.live()).containsExactly(deleted, after);
		assertThat(replayOf(bus, "s1", before.id())).as("the old buffer is gone, deletion included")
			.extracting(SessionEvent::type)
			.containsExactly(EventType.RESYNC);
		assertThat(replayOf(bus, "s1", deleted.id())).containsExactly(after);
		Collecting global = new Collecting();
		bus.subscribe(null, before.id() - 1, global, global::replayed);
		assertThat(global.replay()).containsExactly(before, deleted, after);
	}

	@Test
	void subscribeWhileAnotherThreadPublishesShouldMissNothingAndSeeNothingTwice() throws Exception {
		int events = 10_000;
		int[] thresholds = { 1, 100, 2_500, 5_000, 7_500, 9_900 };
		MemoryEventBus bus = new MemoryEventBus(2 * events, Long.MAX_VALUE); // everything published stays replayable
		long[] published = new long[events];
		AtomicInteger count = new AtomicInteger();
		CountDownLatch[] reached = new CountDownLatch[thresholds.length];
		for (int i = 0; i < reached.length; i++) {
			reached[i] = new CountDownLatch(1);
		}
		ExecutorService executor = Executors.newFixedThreadPool(1 + 2 * thresholds.length);
		try {
			List<Future<Received>> subscribers = new ArrayList<>();
			for (int k = 0; k < thresholds.length; k++) {
				CountDownLatch latch = reached[k];
				subscribers.add(executor.submit(() -> subscribeMidway(bus, "s1", latch, published, count)));
				subscribers.add(executor.submit(() -> subscribeMidway(bus, null, latch, published, count)));
			}
			Future<?> publisher = executor.submit(() -> {
				for (int i = 0; i < events; i++) {
					published[i] = bus.publish(EventType.ENTRY_APPENDED, (i % 3 == 0) ? "s2" : "s1", data(i)).id();
					count.set(i + 1); // makes published[i] visible to readers of count
					for (int k = 0; k < thresholds.length; k++) {
						if (thresholds[k] == i + 1) {
							reached[k].countDown();
						}
					}
				}
			});
			publisher.get(30, TimeUnit.SECONDS);
			for (int k = 0; k < subscribers.size(); k++) {
				assertReceivedEveryLaterEventOnce(subscribers.get(k).get(30, TimeUnit.SECONDS), published,
						(k % 2 == 0) ? "s1" : null);
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	/** Subscribes with the id of the last event the publisher is known to have published, as a reconnect does. */
	private static Received subscribeMidway(MemoryEventBus bus, @Nullable String sessionId, CountDownLatch reached, long[] published,
			AtomicInteger count) throws InterruptedException {
		assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
		int seen = count.get();
		long lastSeenId = published[seen - 1];
		// Let the publisher get ahead, so that the subscriber has events to replay while more are published.
		int ahead = Math.min(published.length, seen + 200);
		while (count.get() < ahead) {
			Thread.onSpinWait();
		}
		List<SessionEvent> received = Collections.synchronizedList(new ArrayList<>());
		AtomicInteger replayed = new AtomicInteger();
		bus.subscribe(sessionId, lastSeenId, received::add, (replay) -> {
			replayed.set(replay.size());
			received.addAll(replay);
		});
		if (ahead > seen) {
			assertThat(replayed).as("events published after %d, before subscribing", lastSeenId).hasPositiveValue();
		}
		return new Received(lastSeenId, received);
	}

	private static void assertReceivedEveryLaterEventOnce(Received received, long[] published,
			@Nullable String sessionId) {
		List<Long> expected = new ArrayList<>();
		for (int i = 0; i < published.length; i++) {
			boolean ofTheStream = sessionId == null || sessionId.equals((i % 3 == 0) ? "s2" : "s1");
			if (published[i] > received.lastSeenId() && ofTheStream) {
				expected.add(published[i]);
			}
		}
		List<Long> ids;
		synchronized (received.events()) {
			ids = received.events().stream().map(SessionEvent::id).toList();
		}
		assertThat(ids).as("%s stream subscribed after event %d", (sessionId != null) ? sessionId : "all",
				received.lastSeenId()).isEqualTo(expected);
	}

	private static ObjectNode data(int n) {
		return Json.newObject().put("n", n);
	}

	private record Received(long lastSeenId, List<SessionEvent> events) {
	}

	/** A subscriber that keeps what it replayed and what it was delivered. */
	private static final class Collecting implements EventSink {

		private final List<SessionEvent> replay = new ArrayList<>();

		private final List<SessionEvent> live = new ArrayList<>();

		private final AtomicLong replayCalls = new AtomicLong();

		@Override
		public boolean offer(SessionEvent event) {
			this.live.add(event);
			return true;
		}

		void replayed(List<SessionEvent> events) {
			this.replayCalls.incrementAndGet();
			this.replay.addAll(events);
		}

		List<SessionEvent> replay() {
			return this.replay;
		}

		List<SessionEvent> live() {
			return this.live;
		}

		long replayCalls() {
			return this.replayCalls.get();
		}

	}

}

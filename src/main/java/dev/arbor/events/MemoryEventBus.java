package dev.arbor.events;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The event bus of the file store: events are numbered and kept for replay in this process (per session, and for the
 * stream of all sessions). Publishing and subscribing share one lock, so each stream sees events in id order, and a
 * subscriber that replays from {@code Last-Event-ID} misses nothing and sees nothing twice; one whose
 * {@code Last-Event-ID} is older than the replay reaches (from an earlier run of Arbor, or dropped since) gets a
 * {@code resync} instead. Subscribers only take events into their own queues under the lock, so a slow one never
 * slows a writer.
 */
public final class MemoryEventBus implements EventBus {

	private final int replaySize;

	private final long replayBytes;

	/** In order of their latest event, so that the sessions quiet for longest are forgotten first. */
	private final LinkedHashMap<String, ReplayBuffer> sessionReplay = new LinkedHashMap<>(16, 0.75f, true);

	private long sessionReplayBytes;

	private final ReplayBuffer allReplay;

	private final EventSinks sinks = new EventSinks();

	/** Ids start at the microseconds since the epoch: above any id of an earlier run, so reconnects never go back. */
	private long lastId = System.currentTimeMillis() * 1000;

	/** The last id before this run's first: what a client saw up to it, this bus knows nothing of. */
	private final long firstId = this.lastId;

	/** The newest id of the session replays dropped so far: a session's replay made later reaches back no further. */
	private long forgottenUpTo = this.firstId;

	/**
	 * @param replaySize the events kept per session, and for the stream of all sessions
	 * @param replayBytes the most bytes of events kept for all sessions together: beyond it, the replay of the
	 * sessions quiet for longest is dropped (entries can be large, and every session ever written has a buffer)
	 */
	public MemoryEventBus(int replaySize, long replayBytes) {
		this.replaySize = replaySize;
		this.replayBytes = replayBytes;
		this.allReplay = new ReplayBuffer(replaySize, replayBytes, this.firstId);
	}

	/**
	 * Tells a session's subscribers (and those of all sessions) that they missed one of its events, which could not
	 * be made: they should read the session again. Its replay goes too, so that a reconnect from before the lost
	 * event gets a {@code resync} rather than a replay without it.
	 */
	@Override
	public synchronized void publishResync(String sessionId, String reason) {
		ReplayBuffer lost = this.sessionReplay.remove(sessionId);
		if (lost != null) {
			forget(lost);
		}
		publish(EventType.RESYNC, sessionId, Json.newObject().put("reason", reason));
	}

	@Override
	public synchronized SessionEvent publishRendered(EventType type, String sessionId, String data) {
		SessionEvent event = new SessionEvent(++this.lastId, type, sessionId, data);
		this.allReplay.add(event);
		if (type == EventType.SESSION_DELETED) {
			ReplayBuffer forgotten = this.sessionReplay.remove(sessionId);
			if (forgotten != null) {
				forget(forgotten);
			}
			this.forgottenUpTo = event.id(); // a session made again under this id replays nothing before its deletion
		}
		else {
			this.sessionReplayBytes += this.sessionReplay
				.computeIfAbsent(sessionId, key -> new ReplayBuffer(this.replaySize, this.replayBytes, this.forgottenUpTo))
				.add(event);
			forgetQuietSessions();
		}
		this.sinks.deliver(event);
		return event;
	}

	@Override
	public synchronized void subscribe(@Nullable String sessionId, @Nullable Long lastEventId, EventSink sink,
			Consumer<List<SessionEvent>> replay) {
		ReplayBuffer buffer = (sessionId != null) ? this.sessionReplay.get(sessionId) : this.allReplay;
		if (lastEventId == null) {
			replay.accept(List.of());
		}
		else if (lastEventId > this.lastId || (buffer != null ? !buffer.reaches(lastEventId) : lastEventId < this.forgottenUpTo)) {
			replay.accept(List.of(resync(sessionId, lastEventId)));
		}
		else {
			replay.accept((buffer != null) ? buffer.after(lastEventId) : List.of());
		}
		this.sinks.add(sessionId, sink);
	}

	@Override
	public synchronized void unsubscribe(@Nullable String sessionId, EventSink sink) {
		this.sinks.remove(sessionId, sink);
	}

	@Override
	public synchronized int subscribers() {
		return this.sinks.size();
	}

	private void forgetQuietSessions() {
		Iterator<ReplayBuffer> oldestFirst = this.sessionReplay.values().iterator();
		while (this.sessionReplayBytes > this.replayBytes && this.sessionReplay.size() > 1 && oldestFirst.hasNext()) {
			forget(oldestFirst.next());
			oldestFirst.remove();
		}
	}

	private void forget(ReplayBuffer buffer) {
		this.sessionReplayBytes -= buffer.bytes();
		this.forgottenUpTo = Math.max(this.forgottenUpTo, buffer.newestId());
	}

	/**
	 * Tells a client that it may have missed events and should refetch what it holds. Numbered with the newest id,
	 * so that its next reconnect resumes from here; sent to that client only.
	 */
	private SessionEvent resync(@Nullable String sessionId, long lastEventId) {
		ObjectNode data = Json.newObject()
			.put("sessionId", sessionId)
			.put("lastEventId", lastEventId)
			.put("reason", "replay-unavailable");
		return new SessionEvent(this.lastId, EventType.RESYNC, sessionId, Json.toString(data));
	}

}

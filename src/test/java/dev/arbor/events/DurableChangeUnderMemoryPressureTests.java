package dev.arbor.events;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.file.FsyncPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An append whose entry is on disk returns it, whatever happens while its event is made: memory running out in a
 * subscriber's delivery included. The event is not lost in silence either: the session's subscribers get a
 * {@code resync}, and read the session again.
 */
class DurableChangeUnderMemoryPressureTests {

	@TempDir
	Path dir;

	@Test
	void appendWhenDeliveringItsEventRunsOutOfMemoryShouldReturnTheDurableEntryAndSendAResync() throws Exception {
		EventBus bus = new MemoryEventBus(16, Long.MAX_VALUE);
		try (FileSessionStore store = new FileSessionStore(this.dir, FsyncPolicy.ALWAYS, 1 << 20, Clock.systemUTC())) {
			store.addChangeListener(new StoreEvents(bus));
			String sessionId = store.create("/w", null, null).id();
			List<SessionEvent> seen = new CopyOnWriteArrayList<>();
			bus.subscribe(sessionId, null, event -> seen.add(event), replay -> {
			});
			bus.subscribe(sessionId, null, event -> {
				if (event.type() == EventType.ENTRY_APPENDED) {
					throw new OutOfMemoryError("Java heap space (provoked)");
				}
				return true;
			}, replay -> {
			});

			List<EntryLine> appended = store.append(sessionId, ExpectedLeaf.ANY, List.of(userMessage("kept")));

			assertThat(appended).hasSize(1);
			Path file = store.get(sessionId).file();
			assertThat(Files.readString(file)).contains(appended.get(0).id()).contains("kept");
			assertThat(seen).extracting(SessionEvent::type).contains(EventType.RESYNC);
			SessionEvent resync = seen.stream().filter(event -> event.type() == EventType.RESYNC).findFirst().orElseThrow();
			assertThat(Json.MAPPER.readTree(resync.data()).get("reason").asString()).isEqualTo("event-failed");
			assertThat(store.get(sessionId).leafId()).isEqualTo(appended.get(0).id());
		}
	}

	private static ObjectNode userMessage(String text) {
		ObjectNode draft = Json.newObject().put("type", "message");
		draft.putObject("message").put("role", "user").put("content", text);
		return draft;
	}

}

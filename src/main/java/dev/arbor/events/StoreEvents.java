package dev.arbor.events;

import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import dev.arbor.session.ListingFacts;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChange.Origin;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the store's changes into events, whoever made them: {@code entry_appended} per entry (with the entry as
 * stored), {@code label_changed} per label entry, {@code leaf_changed} per move, {@code session_created},
 * {@code session_deleted}, {@code session_moved} and {@code session_reloaded}. Each says who made it in
 * {@code origin}: {@code arbor} (through the API) or {@code external} (another process writing the files, such as
 * the agent that owns them). The store calls it in the order of the changes, so the events keep that order.
 */
public final class StoreEvents implements SessionChangeListener {

	private final EventBus bus;

	public StoreEvents(EventBus bus) {
		this.bus = bus;
	}

	@Override
	public void onChange(SessionChange change) {
		if (change instanceof SessionChange.EntriesAppended appended) {
			for (EntryLine entry : appended.entries()) {
				entryAppended(appended.sessionId(), entry, appended.origin());
			}
			leafChanged(appended.sessionId(), appended.oldLeafId(), appended.newLeafId(), appended.origin());
		}
		else if (change instanceof SessionChange.LeafMoved moved) {
			leafChanged(moved.sessionId(), moved.oldLeafId(), moved.newLeafId(), Origin.ARBOR);
		}
		else if (change instanceof SessionChange.SessionCreated created) {
			this.bus.publish(EventType.SESSION_CREATED, created.sessionId(),
					session(created.session()).put("origin", created.origin().wireName()));
		}
		else if (change instanceof SessionChange.SessionDeleted deleted) {
			this.bus.publish(EventType.SESSION_DELETED, deleted.sessionId(),
					Json.newObject().put("origin", deleted.origin().wireName()));
		}
		else if (change instanceof SessionChange.SessionMoved moved) {
			this.bus.publish(EventType.SESSION_MOVED, moved.sessionId(), Json.newObject()
				.put("file", moved.name())
				.put("oldFile", moved.oldName())
				.put("origin", Origin.EXTERNAL.wireName()));
		}
		else if (change instanceof SessionChange.SessionReloaded reloaded) {
			this.bus.publish(EventType.SESSION_RELOADED, reloaded.sessionId(),
					session(reloaded.session()).put("origin", Origin.EXTERNAL.wireName()));
		}
	}

	/** Subscribers of the session are told to read it again: one of its events could not be made. */
	@Override
	public void onUndelivered(SessionChange change) {
		this.bus.publishResync(change.sessionId(), "event-failed");
	}

	private void entryAppended(String sessionId, EntryLine entry, Origin origin) {
		// The entry goes out as its stored bytes, like every entry the API returns.
		String data = "{\"sessionId\":" + Json.quote(sessionId) + ",\"origin\":\"" + origin.wireName() + "\",\"entry\":"
				+ entry.json() + "}";
		this.bus.publishRendered(EventType.ENTRY_APPENDED, sessionId, data);
		if (entry.isType(EntryTypes.LABEL)) {
			ObjectNode node = entry.toNode();
			JsonNode label = node.get("label");
			this.bus.publish(EventType.LABEL_CHANGED, sessionId,
					Json.newObject()
						.put("targetId", Json.text(node, "targetId"))
						.put("label", (label != null && label.isString() && !label.asString().isEmpty())
								? label.asString() : null)
						.put("entryId", entry.id())
						.put("origin", origin.wireName()));
		}
		else if (entry.isType(EntryTypes.SESSION_INFO)) {
			// the name as the listing reads it from this entry (docs/SESSION-FORMAT.md#how-a-session-is-listed)
			this.bus.publish(EventType.SESSION_RENAMED, sessionId,
					Json.newObject()
						.put("name", ListingFacts.NONE.plus(List.of(entry)).name())
						.put("entryId", entry.id())
						.put("origin", origin.wireName()));
		}
	}

	private void leafChanged(String sessionId, @Nullable String oldLeafId, @Nullable String newLeafId, Origin origin) {
		this.bus.publish(EventType.LEAF_CHANGED, sessionId, Json.newObject()
			.put("leafId", newLeafId)
			.put("oldLeafId", oldLeafId)
			.put("origin", origin.wireName()));
	}

	private static ObjectNode session(SessionInfo info) {
		return Json.newObject()
			.put("cwd", info.header().cwd())
			.put("title", info.title())
			.put("parentSession", info.header().parentSession())
			.put("leafId", info.leafId())
			.put("entryCount", info.entryCount());
	}

}

package dev.arbor.events;

import dev.arbor.session.EntryLine;
import dev.arbor.session.EntryTypes;
import dev.arbor.session.Json;
import dev.arbor.storage.SessionChange;
import dev.arbor.storage.SessionChangeListener;
import dev.arbor.storage.SessionInfo;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the store's durable changes into events, whoever made them: {@code entry_appended} per entry (with the
 * entry as stored), {@code label_changed} per label entry, {@code leaf_changed} per move, {@code session_created}
 * and {@code session_deleted}. The store calls it in the order of the writes, so the events keep that order.
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
				entryAppended(appended.sessionId(), entry);
			}
			leafChanged(appended.sessionId(), appended.oldLeafId(), appended.newLeafId());
		}
		else if (change instanceof SessionChange.LeafMoved moved) {
			leafChanged(moved.sessionId(), moved.oldLeafId(), moved.newLeafId());
		}
		else if (change instanceof SessionChange.SessionCreated created) {
			this.bus.publish(EventType.SESSION_CREATED, created.sessionId(), session(created.session()));
		}
		else if (change instanceof SessionChange.SessionDeleted deleted) {
			this.bus.publish(EventType.SESSION_DELETED, deleted.sessionId(), Json.newObject());
		}
	}

	private void entryAppended(String sessionId, EntryLine entry) {
		// The entry goes out as its stored bytes, like every entry the API returns.
		String data = "{\"sessionId\":" + Json.quote(sessionId) + ",\"entry\":" + entry.json() + "}";
		this.bus.publishRendered(EventType.ENTRY_APPENDED, sessionId, data);
		if (entry.isType(EntryTypes.LABEL)) {
			ObjectNode node = entry.toNode();
			JsonNode label = node.get("label");
			this.bus.publish(EventType.LABEL_CHANGED, sessionId,
					Json.newObject()
						.put("targetId", Json.text(node, "targetId"))
						.put("label", (label != null && label.isString() && !label.asString().isEmpty())
								? label.asString() : null)
						.put("entryId", entry.id()));
		}
	}

	private void leafChanged(String sessionId, @Nullable String oldLeafId, @Nullable String newLeafId) {
		this.bus.publish(EventType.LEAF_CHANGED, sessionId,
				Json.newObject().put("leafId", newLeafId).put("oldLeafId", oldLeafId));
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

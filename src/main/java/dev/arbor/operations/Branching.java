package dev.arbor.operations;

import dev.arbor.events.BranchPreparation;
import dev.arbor.events.EventBus;
import dev.arbor.events.EventType;
import dev.arbor.events.SessionHooks;
import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.NavigationPlan;
import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * New sessions out of an existing one (docs/SESSION-FORMAT.md#branching-and-forking): {@code /branch} from a user
 * message with its hooks and events, {@code createBranchedSession} and forks. The source session is only read, never
 * written.
 */
@Service
public class Branching {

	private final SessionStore store;

	private final EventBus bus;

	private final SessionHooks hooks;

	public Branching(SessionStore store, EventBus bus, SessionHooks hooks) {
		this.store = store;
		this.bus = bus;
		this.hooks = hooks;
	}

	/**
	 * {@code /branch}: a new session with the path up to the user message's parent (a new empty one for a root
	 * message), whose text goes back to the editor.
	 *
	 * @throws dev.arbor.session.EntryNotFoundException for an unknown entry
	 * @throws InvalidBranchEntryException when the entry is not a user message
	 */
	public BranchOutcome branch(String sessionId, String entryId) {
		Selection selection = this.store.read(sessionId, tree -> {
			EntryLine entry = tree.requireEntry(entryId);
			if (!NavigationPlan.isUserMessage(entry)) {
				String role = entry.messageRole();
				throw new InvalidBranchEntryException(entryId,
						(role != null) ? "a message of role " + role : "a " + entry.type() + " entry");
			}
			// A parent that names no entry makes the message a root (docs/SESSION-FORMAT.md#the-tree), so the path
			// decides, not parentId.
			boolean root = tree.getPath(entryId).size() <= 1;
			return new Selection(NavigationPlan.editorText(entry), root ? null : entry.parentId(),
					tree.header().cwd());
		});
		this.bus.publish(EventType.SESSION_BEFORE_BRANCH, sessionId, Json.newObject().put("entryId", entryId));
		if (this.hooks.beforeBranch(new BranchPreparation(sessionId, entryId)).cancel()) {
			return new BranchOutcome(true, selection.text(), null, sessionId);
		}
		SessionInfo created = (selection.parentId() == null) ? this.store.create(selection.cwd(), null, sessionId)
				: this.store.createBranchedSession(sessionId, selection.parentId());
		this.bus.publish(EventType.SESSION_BRANCH, sessionId,
				Json.newObject().put("entryId", entryId).put("newSessionId", created.id()));
		return new BranchOutcome(false, selection.text(), created, sessionId);
	}

	/** {@code createBranchedSession(leafId)}: the path root → leafId, labels re-created, in a new session. */
	public SessionInfo createBranchedSession(String sessionId, String leafId) {
		return this.store.createBranchedSession(sessionId, leafId);
	}

	/** Every entry of every branch, labels and leaf unchanged, in a new session. */
	public SessionInfo fork(String sessionId) {
		return this.store.fork(sessionId);
	}

	private record Selection(String text, @Nullable String parentId, @Nullable String cwd) {
	}

}

package dev.arbor.operations;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.arbor.storage.SessionInfo;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Fork lineage (docs/API.md#fork-lineage): a session's ancestors and descendants, by following the header's
 * {@code parentSession} both ways. Worked out per request from the store's listing, which holds every session's
 * header without reading its entries, so no index has to follow creates, forks, imports, deletes and the files an
 * agent adds: it costs one listing (measured in docs/API.md#fork-lineage).
 * <p>
 * A {@code parentSession} is opaque text: Arbor's forks write the source's id, pi's write the source file's path
 * (docs/SESSION-FORMAT.md#branching-and-forking). A value names the session of that id, or else the session stored in
 * the file at that absolute path (only the file store has files); anything else is a missing parent.
 */
@Service
public class Lineages {

	/** The children of one session, oldest first, as pi's own tree lists forks under their source. */
	private static final Comparator<SessionInfo> OLDEST_FIRST = Comparator
		.comparing((SessionInfo info) -> Objects.requireNonNullElse(info.header().timestamp(), ""))
		.thenComparing(SessionInfo::id);

	private final SessionStore store;

	public Lineages(SessionStore store) {
		this.store = store;
	}

	/** @throws dev.arbor.storage.SessionNotFoundException when there is no such session */
	public Lineage lineage(String sessionId) {
		SessionInfo session = this.store.get(sessionId);
		Sessions sessions = new Sessions(this.store.list());
		List<SessionInfo> ancestors = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		seen.add(session.id());
		String missingParent = null;
		String cycle = null;
		SessionInfo current = session;
		String parentSession;
		while ((parentSession = current.header().parentSession()) != null) {
			SessionInfo parent = sessions.resolve(parentSession);
			if (parent == null) {
				missingParent = parentSession;
				break;
			}
			if (!seen.add(parent.id())) {
				cycle = parent.id();
				break;
			}
			ancestors.add(parent);
			current = parent;
		}
		return descendants(session, sessions, ancestors, missingParent, cycle);
	}

	private static Lineage descendants(SessionInfo session, Sessions sessions, List<SessionInfo> ancestors,
			@Nullable String missingParent, @Nullable String cycle) {
		Map<String, List<SessionInfo>> children = sessions.children();
		List<SessionInfo> descendants = new ArrayList<>();
		Map<String, String> parents = new LinkedHashMap<>();
		Set<String> listed = new HashSet<>();
		listed.add(session.id());
		Deque<SessionInfo> queue = new ArrayDeque<>();
		queue.add(session);
		while (!queue.isEmpty()) {
			SessionInfo parent = queue.removeFirst();
			for (SessionInfo child : children.getOrDefault(parent.id(), List.of())) {
				if (listed.add(child.id())) {
					descendants.add(child);
					parents.put(child.id(), parent.id());
					queue.addLast(child);
				}
			}
		}
		return new Lineage(ancestors, missingParent, cycle, descendants, parents);
	}

	/** Every session by id and by file, to resolve a {@code parentSession} to the session it names. */
	private static final class Sessions {

		private final List<SessionInfo> all;

		private final Map<String, SessionInfo> byId = new HashMap<>();

		private final Map<Path, SessionInfo> byFile = new HashMap<>();

		Sessions(List<SessionInfo> all) {
			this.all = all;
			for (SessionInfo info : all) {
				this.byId.put(info.id(), info);
				if (info.file() != null) {
					this.byFile.put(info.file().toAbsolutePath().normalize(), info);
				}
			}
		}

		/** The session a {@code parentSession} names: by id first, then by the absolute path of its file. */
		@Nullable SessionInfo resolve(String parentSession) {
			SessionInfo byId = this.byId.get(parentSession);
			if (byId != null || this.byFile.isEmpty()) {
				return byId;
			}
			try {
				Path path = Path.of(parentSession);
				return path.isAbsolute() ? this.byFile.get(path.normalize()) : null;
			}
			catch (InvalidPathException ex) {
				return null; // not a path on this system (a NUL in it): names nothing here
			}
		}

		/** Parent id → its children, oldest first. */
		Map<String, List<SessionInfo>> children() {
			Map<String, List<SessionInfo>> children = new HashMap<>();
			for (SessionInfo info : this.all) {
				String parentSession = info.header().parentSession();
				SessionInfo parent = (parentSession != null) ? resolve(parentSession) : null;
				if (parent != null && !parent.id().equals(info.id())) {
					children.computeIfAbsent(parent.id(), id -> new ArrayList<>()).add(info);
				}
			}
			children.values().forEach(list -> list.sort(OLDEST_FIRST));
			return children;
		}

	}

}

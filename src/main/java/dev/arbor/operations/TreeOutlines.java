package dev.arbor.operations;

import dev.arbor.session.TreeOutline;
import dev.arbor.storage.SessionStore;
import org.springframework.stereotype.Service;

/**
 * The outline of a session's tree (docs/API.md#tree): what a client shows of a session too big to send whole, and
 * expands a segment at a time through the selector's rows. Taken under the session's read lock with the leaf it
 * belongs to.
 */
@Service
public class TreeOutlines {

	private final SessionStore store;

	public TreeOutlines(SessionStore store) {
		this.store = store;
	}

	public Snapshot<TreeOutline> outline(String sessionId) {
		return this.store.read(sessionId, tree -> new Snapshot<>(TreeOutline.of(tree), tree.leafId()));
	}

}

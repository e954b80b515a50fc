package dev.arbor.operations;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.RowFilter;
import dev.arbor.session.SessionContext;
import dev.arbor.session.SessionTree;
import dev.arbor.session.SessionTreeView;
import dev.arbor.storage.SessionStore;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Reading one session: entries, paths, the tree and its selector view, labels, the leaf and the model context
 * (docs/SESSION-FORMAT.md#the-tree, docs/SESSION-FORMAT.md#the-model-context and
 * docs/SESSION-FORMAT.md#the-selector-rows). Each result is copied out under the session's read lock with the leaf it
 * belongs to, so it can be written to a slow client while others append.
 */
@Service
public class TreeQueries {

	private final SessionStore store;

	public TreeQueries(SessionStore store) {
		this.store = store;
	}

	/**
	 * Entries in file order.
	 *
	 * @param afterId the entry the page starts after ({@code nextCursor} of the previous page, or any entry id);
	 * {@code null} starts at the first entry. With duplicate ids the later entry is meant, as for every lookup
	 * @param limit the most entries on the page
	 */
	public Snapshot<Page<EntryLine>> entries(String sessionId, @Nullable String afterId, int limit) {
		return read(sessionId, tree -> Page.of(tree.getEntriesAfter(afterId), limit, EntryLine::id));
	}

	public Snapshot<EntryDetail> entry(String sessionId, String entryId) {
		return read(sessionId, tree -> {
			EntryLine entry = tree.requireEntry(entryId);
			List<String> childIds = tree.getChildren(entryId).stream().map(EntryLine::id).toList();
			return new EntryDetail(entry, tree.getLabel(entryId), childIds);
		});
	}

	/** Direct children in insertion order. */
	public Snapshot<List<EntryLine>> children(String sessionId, String entryId) {
		return read(sessionId, tree -> tree.getChildren(entryId));
	}

	/** {@code getPath(entryId)}: root → entry. */
	public Snapshot<List<EntryLine>> path(String sessionId, String entryId) {
		return read(sessionId, tree -> {
			tree.requireEntry(entryId);
			return List.copyOf(tree.getPath(entryId));
		});
	}

	/** Root → leaf; empty while the leaf is null. */
	public Snapshot<List<EntryLine>> leafPath(String sessionId) {
		return read(sessionId, tree -> List.copyOf(tree.getLeafPath()));
	}

	public Snapshot<SessionTreeView> tree(String sessionId) {
		return read(sessionId, SessionTree::getTree);
	}

	/**
	 * A page of the selector view, with the rows below each of {@code folded} left out.
	 *
	 * @throws InvalidCursorException when a cursor names no row of the view (any more)
	 * @throws dev.arbor.session.EntryNotFoundException when {@code around} or {@code from} names no entry
	 */
	public Snapshot<RowsPage> rows(String sessionId, RowFilter filter, @Nullable String query, Set<String> folded,
			RowsWindow window) {
		return read(sessionId, tree -> RowPages.page(tree.getTreeRows(filter, query, folded), query, window));
	}

	/** targetId → label, in the order the labels were first set. */
	public Snapshot<Map<String, String>> labels(String sessionId) {
		return read(sessionId, SessionTree::getLabels);
	}

	public Snapshot<@Nullable String> leaf(String sessionId) {
		return read(sessionId, SessionTree::leafId);
	}

	/**
	 * {@code buildSessionContext}.
	 *
	 * @param leafId where to build it; {@code null} for the session's leaf. <b>Arbor:</b> an unknown id is an
	 * error (404, docs/API.md#errors-problem-documents), not the last entry as in upstream's engine, so a typo is never
	 * mistaken for a context
	 */
	public Snapshot<SessionContext> context(String sessionId, @Nullable String leafId, ContextFormat format) {
		return read(sessionId, tree -> {
			if (leafId != null) {
				tree.requireEntry(leafId);
			}
			SessionContext context = (leafId != null) ? tree.buildSessionContext(leafId) : tree.buildSessionContext();
			return (format == ContextFormat.LLM) ? context.forModel() : context;
		});
	}

	private <T> Snapshot<T> read(String sessionId, Function<SessionTree, T> reader) {
		return this.store.read(sessionId, tree -> new Snapshot<>(reader.apply(tree), tree.leafId()));
	}

}

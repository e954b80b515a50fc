// One session: its tree selector beside the entry under the cursor, kept current by the session's event stream.
import { ApiError, call, get, seg } from './api.js';
import { SessionActions } from './actions.js';
import { ago, count, dialog, h, notify, replace } from './dom.js';
import { EntryPanel } from './entry.js';
import { follow } from './live.js';
import { sessionName } from './sessions.js';
import { address, go } from './routes.js';
import { TreeView } from './tree.js';

export class SessionView {
	constructor(container, route) {
		this.sessionId = route.sessionId;
		this.actions = new SessionActions(this);
		this.tree = new TreeView(this.sessionId, {
			onCursor: (entryId, { push }) => this.cursorMoved(entryId, push),
			onNavigate: (entryId) => this.actions.navigate(entryId),
			onLabel: (entryId, label) => this.actions.label(entryId, label),
			onView: (view) => go(address(this.sessionId, this.entryId, view), { replace: true }),
		});
		this.entry = new EntryPanel(this);
		this.head = h('header', { className: 'session-head' }, h('h1', {}, 'Loading…'));
		replace(container, h('div', { className: 'session-view' }, this.head,
			h('div', { className: 'panes' }, this.tree.element, this.entry.element)));
		this.stream = follow(`/sessions/${seg(this.sessionId)}/events`, (type, data) => this.onEvent(type, data));
		this.start(route);
	}

	/** Reads the session and its rows at once: on a cold start both wait for the same load of the file. */
	async start(route) {
		this.update(route);
		const lineage = this.readLineage();
		if (await this.readSession()) {
			this.tree.viewport.focus();
		}
		await lineage;
	}

	accepts(route) {
		return route.name === 'session' && route.sessionId === this.sessionId;
	}

	/** The address changed within this session: another entry, filter or search. */
	update(route) {
		this.filter = route.query.get('filter') ?? 'default';
		this.q = route.query.get('q') ?? '';
		const entryChanged = route.entryId !== this.entryId;
		this.entryId = route.entryId;
		this.tree.show({ filter: this.filter, q: this.q }, this.entryId).catch((failure) => this.failed(failure));
		if (entryChanged) {
			if (this.entryId) {
				this.entry.show(this.entryId);
			} else {
				this.entry.empty();
			}
		}
	}

	/** The address's view parameters, for links that keep them. */
	query() {
		return { filter: this.filter === 'default' ? '' : this.filter, q: this.q };
	}

	unmount() {
		this.stream.close();
	}

	/** The cursor is on another entry: a click is a new history entry, a key press rewrites the current one. */
	cursorMoved(entryId, push) {
		if (entryId !== this.entryId) {
			go(address(this.sessionId, entryId, this.query()), { replace: !push });
		}
	}

	async readSession() {
		try {
			const answer = await call('GET', `/sessions/${seg(this.sessionId)}`);
			this.session = answer.body;
			this.etag = answer.etag;
			this.drawHead();
			return true;
		} catch (failure) {
			this.failed(failure);
			return false;
		}
	}

	/** Where the session sits among forks: its parent and its forks, drawn in the header (docs/API.md#fork-lineage). */
	async readLineage() {
		try {
			this.lineage = await get(`/sessions/${seg(this.sessionId)}/lineage`);
		} catch (failure) {
			this.lineage = { failure };
		}
		if (this.session) {
			this.drawHead();
		}
	}

	failed(failure) {
		if (failure instanceof ApiError && (failure.status === 404 || failure.status === 400)) {
			replace(this.head, h('h1', {}, 'No such session'), h('p', {}, failure.message), h('a', { href: '#/' }, 'All sessions'));
		} else {
			notify(`The session could not be read: ${failure.message}`, 'error');
		}
	}

	drawHead() {
		const session = this.session;
		document.title = `${sessionName(session)} · Arbor`;
		replace(this.head,
			h('h1', {}, session.name || session.title || 'Untitled session'),
			h('p', { className: 'session-meta' },
				h('code', {}, session.id), ' · ', session.cwd ?? 'no folder', ' · ',
				h('span', { className: 'entry-count' }, `${count(session.entryCount)} entries`), ' · leaf ',
				h('code', { className: 'session-leaf' }, session.leafId ?? '(none)'), ' · changed ',
				h('time', { dateTime: session.changedAt, title: session.changedAt }, ago(session.changedAt))),
			this.lineageLine(),
			h('div', { className: 'session-actions' },
				h('button', { type: 'button', onclick: () => this.actions.fork(), title: 'A new session with every entry of this one' }, 'Fork'),
				h('button', { type: 'button', className: 'danger', onclick: () => this.remove() }, 'Delete…')));
	}

	/**
	 * The parent as a link, or as text when the header names a session that is not stored (deleted, a path elsewhere);
	 * the forks made from this session as links, and how many were made from those.
	 */
	lineageLine() {
		const lineage = this.lineage;
		if (!lineage) {
			return null;
		}
		if (lineage.failure) {
			return h('p', { className: 'session-lineage' }, `The forks could not be read: ${lineage.failure.message}`);
		}
		const parts = [];
		const parent = lineage.ancestors[0];
		if (parent) {
			parts.push(h('span', { className: 'lineage-parent' }, 'Forked from ', this.sessionLink(parent)));
		} else if (lineage.missingParent) {
			parts.push(h('span', { className: 'lineage-parent missing', title: 'The header names a session that is not stored here' },
				'Forked from a session that is not here: ', h('code', {}, lineage.missingParent)));
		}
		const forks = lineage.descendants.filter((session) => lineage.parents[session.id] === this.sessionId);
		if (forks.length) {
			const further = lineage.descendants.length - forks.length;
			parts.push(h('span', { className: 'lineage-forks' }, `Forks (${count(forks.length)}): `,
				forks.map((fork, index) => [index ? ', ' : '', this.sessionLink(fork)]),
				further ? ` and ${count(further)} ${further === 1 ? 'fork' : 'forks'} of those` : ''));
		}
		return parts.length ? h('p', { className: 'session-lineage' }, parts.map((part, index) => [index ? ' · ' : '', part])) : null;
	}

	/** A link to a session by its name, with the start of its id: a fork has its source's name until renamed. */
	sessionLink(session) {
		return [h('a', { href: address(session.id), 'data-session-id': session.id, title: session.id }, sessionName(session)),
			' ', h('code', { className: 'short-id' }, session.id.slice(0, 8))];
	}

	/**
	 * Reads the session and its view again: after a change, a 412, or a resync. The open entry is read again too,
	 * unless `entryChanged` is false: an agent's turn elsewhere in the tree leaves the entry, and its open tab, alone.
	 */
	async reload(entryChanged = true) {
		if (await this.readSession()) {
			await this.tree.refresh();
			if (this.entryId && entryChanged) {
				await this.entry.show(this.entryId);
			}
		}
	}

	onEvent(type, data) {
		if (type === 'session_deleted') {
			notify('This session was deleted.', 'error');
			go('#/');
		} else if (['entry_appended', 'leaf_changed', 'label_changed', 'session_reloaded', 'resync'].includes(type)) {
			if (type === 'session_reloaded' || type === 'resync') {
				this.readLineage(); // the header may name another parent now
			}
			this.entryChanged ||= this.concernsEntry(type, data);
			// a burst of events (an agent's turn) is read once
			clearTimeout(this.reloadTimer);
			this.reloadTimer = setTimeout(() => {
				const entryChanged = this.entryChanged;
				this.entryChanged = false;
				this.reload(entryChanged).catch((failure) => this.failed(failure));
			}, 50);
		}
	}

	/** Whether an event changes what the entry panel shows: its children, its label, whether it is the leaf. */
	concernsEntry(type, data) {
		const id = this.entryId;
		switch (type) {
			case 'entry_appended':
				return data.entry?.parentId === id;
			case 'leaf_changed':
				return data.leafId === id || data.oldLeafId === id;
			case 'label_changed':
				return data.targetId === id;
			default:
				return true;
		}
	}

	async remove() {
		const deleted = await dialog('Delete session', h('p', {}, `Delete this session and its ${count(this.session.entryCount)} entries? This cannot be undone.`), {
			submitLabel: 'Delete', danger: true,
			onSubmit: async () => (await this.actions.change('DELETE', '')) !== null,
		});
		if (deleted) {
			go('#/');
		}
	}
}

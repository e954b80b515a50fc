// One session: its tree selector beside the entry under the cursor, kept current by the session's event stream.
import { ApiError, call, seg } from './api.js';
import { SessionActions } from './actions.js';
import { ago, count, dialog, h, notify, replace } from './dom.js';
import { EntryPanel } from './entry.js';
import { follow } from './live.js';
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
		if (await this.readSession()) {
			this.tree.viewport.focus();
		}
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

	failed(failure) {
		if (failure instanceof ApiError && (failure.status === 404 || failure.status === 400)) {
			replace(this.head, h('h1', {}, 'No such session'), h('p', {}, failure.message), h('a', { href: '#/' }, 'All sessions'));
		} else {
			notify(`The session could not be read: ${failure.message}`, 'error');
		}
	}

	drawHead() {
		const session = this.session;
		document.title = `${session.title || session.id} · Arbor`;
		replace(this.head,
			h('h1', {}, session.title || 'Untitled session'),
			h('p', { className: 'session-meta' },
				h('code', {}, session.id), ' · ', session.cwd ?? 'no folder', ' · ',
				h('span', { className: 'entry-count' }, `${count(session.entryCount)} entries`), ' · leaf ',
				h('code', { className: 'session-leaf' }, session.leafId ?? '(none)'), ' · changed ',
				h('time', { dateTime: session.changedAt, title: session.changedAt }, ago(session.changedAt)),
				session.parentSession ? [' · from ', h('a', { href: address(session.parentSession) }, session.parentSession)] : null),
			h('div', { className: 'session-actions' },
				h('button', { type: 'button', onclick: () => this.actions.fork(), title: 'A new session with every entry of this one' }, 'Fork'),
				h('button', { type: 'button', className: 'danger', onclick: () => this.remove() }, 'Delete…')));
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

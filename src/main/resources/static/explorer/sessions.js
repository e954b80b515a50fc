// The sessions: filtered by GET /sessions?q= as you type, in the order chosen, a page at a time, kept current by the
// /events stream; import by file picker or drag and drop, export, delete.
import { call, get, seg, ApiError } from './api.js';
import { ago, count, dialog, h, notify, replace } from './dom.js';
import { Latest } from './latest.js';
import { follow } from './live.js';
import { address, go } from './routes.js';

const PAGE = 100;

/** The orders offered, as `sort` and `order` of GET /sessions (docs/API.md#listing-filtering-and-sorting). */
const SORTS = {
	changed: { label: 'Last changed', sort: 'changed', order: 'desc' },
	created: { label: 'Newest', sort: 'created', order: 'desc' },
	name: { label: 'Name', sort: 'name', order: 'asc' },
	messages: { label: 'Most messages', sort: 'messages', order: 'desc' },
};

/** What a person reads as a session's name: its name, else its title, else its first message (as pi's /resume). */
export function sessionName(session) {
	return session.name || session.title || session.firstMessage || session.id;
}

export class SessionList {
	constructor(container, route) {
		this.container = container;
		this.sessions = new Map();
		this.q = route.query.get('q') ?? '';
		this.sort = SORTS[route.query.get('sort')] ? route.query.get('sort') : 'changed';
		this.search = h('input', {
			type: 'search', className: 'search', placeholder: 'Filter by name, first message or folder', 'aria-label': 'Filter sessions',
			value: this.q, oninput: () => this.navigate({ q: this.search.value.trim() }),
		});
		this.order = h('select', { className: 'sort', 'aria-label': 'Order', onchange: () => this.navigate({ sort: this.order.value }) },
			Object.entries(SORTS).map(([key, { label }]) => h('option', { value: key, selected: key === this.sort }, label)));
		this.picker = h('input', { type: 'file', className: 'file-picker', accept: '.jsonl,application/x-ndjson,text/plain', multiple: true, tabIndex: -1, 'aria-label': 'Session files to import',
			onchange: () => this.importFiles([...this.picker.files]) });
		this.list = h('ul', { className: 'session-list', 'aria-label': 'Sessions' });
		this.status = h('p', { className: 'muted sessions-status', 'aria-live': 'polite' }, 'Loading sessions…');
		this.more = h('button', { type: 'button', hidden: true, onclick: () => this.loadMore() }, 'Load more');
		this.listing = new Latest((question) => this.read(question, null), (page) => this.showFirst(page),
			(failure) => this.failed(failure));
		const drop = h('section', { className: 'sessions' },
			h('div', { className: 'toolbar' }, h('h1', {}, 'Sessions'), this.search, this.order,
				h('button', { type: 'button', onclick: () => this.create() }, 'New session'),
				h('button', { type: 'button', onclick: () => this.picker.click() }, 'Import…'), this.picker),
			h('p', { className: 'hint' }, 'Drop session files (.jsonl) anywhere on this page to import them.'),
			this.status, this.list, this.more);
		replace(container, drop);
		this.dropTarget = drop;
		this.onDragOver = (event) => { event.preventDefault(); drop.classList.add('dropping'); };
		this.onDragLeave = () => drop.classList.remove('dropping');
		this.onDrop = (event) => {
			event.preventDefault();
			drop.classList.remove('dropping');
			this.importFiles([...event.dataTransfer.files]);
		};
		document.addEventListener('dragover', this.onDragOver);
		document.addEventListener('dragleave', this.onDragLeave);
		document.addEventListener('drop', this.onDrop);
		this.stream = follow('/events', (type, data) => this.onEvent(type, data));
		this.listing.now(this.question());
		document.title = 'Sessions · Arbor';
	}

	accepts(route) {
		return route.name === 'sessions';
	}

	/** The filter or the order changed in the address (typed, chosen, or the back button): the list is read again. */
	update(route) {
		const q = route.query.get('q') ?? '';
		const sort = SORTS[route.query.get('sort')] ? route.query.get('sort') : 'changed';
		if (this.search.value.trim() !== q) {
			this.search.value = q;
		}
		this.order.value = sort;
		if (q !== this.q || sort !== this.sort) {
			const typed = q !== this.q;
			this.q = q;
			this.sort = sort;
			if (typed) {
				this.listing.soon(this.question());
			} else {
				this.listing.now(this.question());
			}
		}
	}

	/** The address with this filter and order: typing rewrites the history entry rather than adding one per key. */
	navigate(change) {
		const next = { q: this.q, sort: this.sort, ...change };
		go(address(null, null, { q: next.q, sort: next.sort === 'changed' ? '' : next.sort }), { replace: true });
	}

	unmount() {
		this.listing.cancel();
		this.stream.close();
		document.removeEventListener('dragover', this.onDragOver);
		document.removeEventListener('dragleave', this.onDragLeave);
		document.removeEventListener('drop', this.onDrop);
	}

	question(limit = PAGE) {
		return { q: this.q, ...SORTS[this.sort], limit };
	}

	read({ q, sort, order, limit }, cursor) {
		const params = new URLSearchParams({ limit: String(limit), sort, order });
		if (q) {
			params.set('q', q);
		}
		if (cursor) {
			params.set('cursor', cursor);
		}
		return get(`/sessions?${params}`);
	}

	/** The first page of a question: what was listed before goes. */
	showFirst(page) {
		this.sessions.clear();
		this.take(page);
	}

	take(page) {
		for (const session of page.items) {
			this.sessions.set(session.id, session);
		}
		this.nextCursor = page.nextCursor;
		this.unreadable = page.unreadable ?? [];
		this.render();
	}

	async loadMore() {
		try {
			const page = await this.listing.onward(() => this.read(this.question(), this.nextCursor));
			if (page) {
				this.take(page);
			}
		} catch (failure) {
			notify(`More sessions could not be read: ${failure.message}`, 'error'); // what is shown stays, and the button can be pressed again
		}
	}

	failed(failure) {
		replace(this.status, failure instanceof ApiError && failure.status === 400
			? `That filter cannot be used: ${failure.message}` : `The sessions could not be read: ${failure.message}`);
		replace(this.list);
		this.more.hidden = true;
	}

	/**
	 * The sessions in the order they were listed in; newest change first by what the page saw change since, when
	 * that is the order chosen (an agent's turn brings its session to the top, as the next listing would).
	 */
	render() {
		let shown = [...this.sessions.values()];
		if (this.sort === 'changed') {
			shown = shown.sort((a, b) => (b.changedAt ?? '').localeCompare(a.changedAt ?? ''));
		}
		replace(this.list, shown.map((session) => this.item(session)));
		const total = this.sessions.size;
		const sessions = `${count(total)}${this.nextCursor ? ' or more' : ''} ${total === 1 && !this.nextCursor ? 'session' : 'sessions'}`;
		replace(this.status, total === 0
			? (this.q ? `No sessions match “${this.q}”.` : 'No sessions yet: create one, or import a session file.')
			: this.q ? `${sessions} ${total === 1 && !this.nextCursor ? 'matches' : 'match'}.` : `${sessions}.`);
		if (this.unreadable?.length) {
			this.status.append(` ${this.unreadable.length} files in the storage directory are not sessions.`);
		}
		this.more.hidden = !this.nextCursor;
	}

	/** A row: the name a person reads (and the first message under it when that is not the name), count, folder, age. */
	item(session) {
		const link = address(session.id);
		const name = sessionName(session);
		const first = (session.name || session.title) && session.messageCount > 0 ? session.firstMessage : null;
		return h('li', { className: 'session', 'data-session-id': session.id },
			h('div', { className: 'session-names' },
				h('a', { href: link, className: 'session-title', title: name }, name),
				first ? h('span', { className: 'session-first', title: first }, first) : null),
			h('span', { className: 'session-cwd', title: session.cwd ? `Folder (cwd): ${session.cwd}` : 'No folder' }, session.cwd ?? ''),
			h('span', { className: 'session-count' }, `${count(session.messageCount)} ${session.messageCount === 1 ? 'message' : 'messages'}`),
			h('time', { className: 'session-changed', dateTime: session.changedAt, title: session.changedAt }, ago(session.changedAt)),
			h('span', { className: 'session-actions' },
				h('button', { type: 'button', className: 'link', onclick: () => this.export(session) }, 'Export'),
				h('button', { type: 'button', className: 'link danger', onclick: () => this.remove(session) }, 'Delete')));
	}

	/**
	 * Keeps the list current. In the default listing a new or reloaded session is read and put in; under a filter or
	 * another order only the server knows where it goes (or whether it is listed), so the list is read again.
	 */
	onEvent(type, data) {
		const session = this.sessions.get(data.sessionId);
		if (type === 'session_created' || type === 'session_reloaded' || type === 'session_renamed') {
			if (this.q || this.sort !== 'changed') {
				this.relistSoon();
			} else {
				this.refresh(data.sessionId);
			}
		} else if (type === 'session_deleted') {
			this.sessions.delete(data.sessionId);
			this.render();
		} else if (type === 'resync') {
			this.relistSoon();
		} else if (session && type === 'entry_appended') {
			session.entryCount += 1;
			if (data.entry?.type === 'message') {
				session.messageCount += 1;
			}
			session.changedAt = new Date().toISOString();
			this.renderSoon();
		} else if (session && type === 'leaf_changed') {
			session.leafId = data.leafId;
			session.changedAt = new Date().toISOString();
			this.renderSoon();
		}
	}

	/** Reads the list again, as many sessions as are shown, once for a burst of events. */
	relistSoon() {
		clearTimeout(this.relistTimer);
		this.relistTimer = setTimeout(() => {
			this.listing.now(this.question(Math.min(1000, Math.max(PAGE, this.sessions.size))));
		}, 100);
	}

	/** Many appends in a burst draw the list once. */
	renderSoon() {
		if (!this.pending) {
			this.pending = requestAnimationFrame(() => { this.pending = null; this.render(); });
		}
	}

	async refresh(sessionId) {
		try {
			this.sessions.set(sessionId, await get(`/sessions/${seg(sessionId)}`));
		} catch (failure) {
			if (failure instanceof ApiError && failure.status === 404) {
				this.sessions.delete(sessionId);
			}
		}
		this.render();
	}

	async create() {
		const title = h('input', { name: 'title', autofocus: true, 'aria-label': 'Title' });
		const cwd = h('input', { name: 'cwd', 'aria-label': 'Folder', placeholder: '/home/me/project' });
		const created = await dialog('New session', [h('label', {}, 'Title ', title), h('label', {}, 'Folder (cwd) ', cwd)], {
			submitLabel: 'Create',
			onSubmit: async () => (await call('POST', '/sessions', { json: { title: title.value || null, cwd: cwd.value || null } })).body,
		});
		if (created) {
			go(address(created.id));
		}
	}

	async importFiles(files) {
		for (const file of files) {
			try {
				const session = await this.importFile(file, false);
				if (session) {
					notify(`Imported ${file.name}: ${sessionName(session)} (${count(session.entryCount)} entries).`);
					this.sessions.set(session.id, session);
				}
			} catch (failure) {
				notify(`${file.name} was not imported: ${failure.message}`, 'error');
			}
		}
		this.picker.value = '';
		this.render();
	}

	/** Imports a file; when its id is taken, offers to import it as a copy under a new id. */
	async importFile(file, newId) {
		try {
			const path = newId ? '/sessions/import?newId=true' : '/sessions/import';
			return (await call('POST', path, { body: file, contentType: 'application/x-ndjson' })).body;
		} catch (failure) {
			if (failure instanceof ApiError && failure.type === 'session-exists' && !newId) {
				const copy = await dialog('Session exists', h('p', {}, `A session with the id in ${file.name} exists already. Import the file as a copy with a new id?`),
					{ submitLabel: 'Import as a copy', onSubmit: () => true });
				return copy ? this.importFile(file, true) : null;
			}
			throw failure;
		}
	}

	/** Downloads the export; fetched rather than linked, so that it carries the API key when one is needed. */
	async export(session) {
		try {
			const { response } = await call('GET', `/sessions/${seg(session.id)}/export`, { accept: 'application/x-ndjson', raw: true });
			const url = URL.createObjectURL(await response.blob());
			const link = h('a', { href: url, download: `${session.id}.jsonl`, hidden: true });
			document.body.append(link);
			link.click();
			link.remove();
			setTimeout(() => URL.revokeObjectURL(url), 60000);
		} catch (failure) {
			notify(`The export failed: ${failure.message}`, 'error');
		}
	}

	async remove(session) {
		const deleted = await dialog('Delete session', h('p', {}, `Delete “${sessionName(session)}” and its ${count(session.entryCount)} entries? This cannot be undone.`), {
			submitLabel: 'Delete', danger: true,
			onSubmit: async () => {
				// If-Match from a fresh read: the session is deleted as it was shown, not after a change made meanwhile.
				const current = await call('GET', `/sessions/${seg(session.id)}`);
				if (current.body.leafId !== session.leafId) {
					this.sessions.set(session.id, current.body);
					this.render();
					throw new Error('The session changed since this list was drawn. Look again, then delete.');
				}
				await call('DELETE', `/sessions/${seg(session.id)}`, { ifMatch: current.etag });
				return true;
			},
		});
		if (deleted) {
			this.sessions.delete(session.id);
			this.render();
			notify('Session deleted.');
		}
	}
}

// The sessions: searchable by title and folder, newest change first, kept current by the /events stream;
// import by file picker or drag and drop, export, delete.
import { call, get, seg, ApiError } from './api.js';
import { ago, count, dialog, h, notify, replace } from './dom.js';
import { follow } from './live.js';
import { address, go } from './routes.js';

const PAGE = 1000;
/** Sessions read without asking, so that the search (in the page) finds them; beyond, a button reads more. */
const AUTOLOAD = 10000;

export class SessionList {
	constructor(container, route) {
		this.container = container;
		this.sessions = new Map();
		this.search = h('input', {
			type: 'search', className: 'search', placeholder: 'Search by title or folder', 'aria-label': 'Search sessions',
			value: route.query.get('q') ?? '', oninput: () => {
				go(address(null, null, { q: this.search.value.trim() }), { replace: true });
			},
		});
		this.picker = h('input', { type: 'file', className: 'file-picker', accept: '.jsonl,application/x-ndjson,text/plain', multiple: true, tabIndex: -1, 'aria-label': 'Session files to import',
			onchange: () => this.importFiles([...this.picker.files]) });
		this.list = h('ul', { className: 'session-list', 'aria-label': 'Sessions' });
		this.status = h('p', { className: 'muted' }, 'Loading sessions…');
		this.more = h('button', { type: 'button', hidden: true, onclick: () => this.load(this.nextCursor) }, 'Load more');
		const drop = h('section', { className: 'sessions' },
			h('div', { className: 'toolbar' }, h('h1', {}, 'Sessions'), this.search,
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
		this.load(null);
		document.title = 'Sessions · Arbor';
	}

	accepts(route) {
		return route.name === 'sessions';
	}

	update(route) {
		const q = route.query.get('q') ?? '';
		if (this.search.value.trim() !== q) {
			this.search.value = q;
		}
		this.render();
	}

	unmount() {
		this.stream.close();
		document.removeEventListener('dragover', this.onDragOver);
		document.removeEventListener('dragleave', this.onDragLeave);
		document.removeEventListener('drop', this.onDrop);
	}

	async load(cursor) {
		try {
			const page = await get(`/sessions?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
			for (const session of page.items) {
				this.sessions.set(session.id, session);
			}
			this.nextCursor = page.nextCursor;
			this.unreadable = page.unreadable ?? [];
			this.render();
			if (this.nextCursor && this.sessions.size < AUTOLOAD) {
				await this.load(this.nextCursor);
			}
		} catch (failure) {
			replace(this.status, `The sessions could not be read: ${failure.message}`);
		}
	}

	/** Sessions newest change first, those matching every word of the search in their title or folder. */
	render() {
		const words = this.search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
		const shown = [...this.sessions.values()]
			.filter((session) => {
				const text = `${session.title ?? ''} ${session.cwd ?? ''}`.toLowerCase();
				return words.every((word) => text.includes(word));
			})
			.sort((a, b) => (b.changedAt ?? '').localeCompare(a.changedAt ?? ''));
		replace(this.list, shown.map((session) => this.item(session)));
		const total = this.sessions.size;
		replace(this.status, total === 0 ? 'No sessions yet: create one, or import a session file.'
			: words.length ? `${count(shown.length)} of ${count(total)} sessions match.` : `${count(total)} sessions.`);
		if (this.unreadable?.length) {
			this.status.append(` ${this.unreadable.length} files in the storage directory are not sessions.`);
		}
		this.more.hidden = !this.nextCursor;
	}

	item(session) {
		const link = address(session.id);
		return h('li', { className: 'session', 'data-session-id': session.id },
			h('a', { href: link, className: 'session-title' }, session.title || `Untitled · ${session.id}`),
			h('span', { className: 'session-cwd', title: 'Folder (cwd)' }, session.cwd ?? ''),
			h('span', { className: 'session-count' }, `${count(session.entryCount)} entries`),
			h('time', { className: 'session-changed', dateTime: session.changedAt, title: session.changedAt }, ago(session.changedAt)),
			h('span', { className: 'session-actions' },
				h('button', { type: 'button', className: 'link', onclick: () => this.export(session) }, 'Export'),
				h('button', { type: 'button', className: 'link danger', onclick: () => this.remove(session) }, 'Delete')));
	}

	onEvent(type, data) {
		const session = this.sessions.get(data.sessionId);
		if (type === 'session_created' || type === 'session_reloaded') {
			this.refresh(data.sessionId);
		} else if (type === 'session_deleted') {
			this.sessions.delete(data.sessionId);
			this.render();
		} else if (type === 'resync') {
			this.sessions.clear();
			this.load(null);
		} else if (session && type === 'entry_appended') {
			session.entryCount += 1;
			session.changedAt = new Date().toISOString();
			this.renderSoon();
		} else if (session && type === 'leaf_changed') {
			session.leafId = data.leafId;
			session.changedAt = new Date().toISOString();
			this.renderSoon();
		}
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
					notify(`Imported ${file.name}: ${session.title || session.id} (${count(session.entryCount)} entries).`);
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
		const deleted = await dialog('Delete session', h('p', {}, `Delete “${session.title || session.id}” and its ${count(session.entryCount)} entries? This cannot be undone.`), {
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

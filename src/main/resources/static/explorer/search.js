// Search across sessions: GET /search as you type (docs/API.md#search), the hits best first with their session's
// name, role, time and snippet, the matches marked from the answer's offsets; a hit opens its session at that entry.
import { ApiError, get, seg } from './api.js';
import { ago, count, h, highlighted, notify, replace } from './dom.js';
import { Latest } from './latest.js';
import { sessionName } from './sessions.js';
import { address, go, searchAddress } from './routes.js';

/** The roles offered as a filter: the ones people look for most (the API takes more, docs/API.md#search). */
const ROLES = [['', 'Any role'], ['user', 'User'], ['assistant', 'Assistant'], ['toolResult', 'Tool results'],
	['bashExecution', 'Bash'], ['branchSummary', 'Summaries']];

export class SearchView {
	constructor(container, route) {
		this.q = route.query.get('q') ?? '';
		this.role = route.query.get('role') ?? '';
		/** Session id → a promise of the session, read once for all of its hits. */
		this.sessions = new Map();
		this.input = h('input', {
			type: 'search', className: 'search', placeholder: 'Search every session: words, pref*, "a phrase"',
			'aria-label': 'Search every session', value: this.q, autofocus: true,
			oninput: () => this.navigate({ q: this.input.value.trim() }),
		});
		this.roles = h('select', { className: 'role', 'aria-label': 'Role', onchange: () => this.navigate({ role: this.roles.value }) },
			ROLES.map(([value, label]) => h('option', { value, selected: value === this.role }, label)));
		this.status = h('p', { className: 'muted search-status', 'aria-live': 'polite' });
		this.partial = h('p', { className: 'search-partial', hidden: true },
			'The search index is still being built: some hits may be missing. Search again in a moment.');
		this.hits = h('ol', { className: 'search-hits', 'aria-label': 'Hits' });
		this.more = h('button', { type: 'button', hidden: true, onclick: () => this.loadMore() }, 'More');
		this.searching = new Latest((question) => this.read(question, null), (page) => this.showFirst(page),
			(failure) => this.failed(failure));
		replace(container, h('section', { className: 'sessions search-view' },
			h('div', { className: 'toolbar' }, h('h1', {}, 'Search'), this.input, this.roles),
			this.partial, this.status, this.hits, this.more));
		document.title = 'Search · Arbor';
		this.input.focus();
		this.ask(false);
	}

	accepts(route) {
		return route.name === 'search';
	}

	update(route) {
		const q = route.query.get('q') ?? '';
		const role = route.query.get('role') ?? '';
		if (this.input.value.trim() !== q) {
			this.input.value = q;
		}
		this.roles.value = role;
		if (q !== this.q || role !== this.role) {
			const typed = q !== this.q;
			this.q = q;
			this.role = role;
			this.ask(typed);
		}
	}

	navigate(change) {
		go(searchAddress({ q: this.q, role: this.role, ...change }), { replace: true });
	}

	unmount() {
		this.searching.cancel();
	}

	/** Asks for the first page: after a pause when typed, at once otherwise. Nothing is asked for an empty box. */
	ask(typed) {
		if (!this.q) {
			this.searching.cancel();
			replace(this.hits);
			replace(this.status, 'Words find entries with every word; pref* any word that begins so; "a phrase" the words in a row.');
			this.partial.hidden = true;
			this.more.hidden = true;
			return;
		}
		const question = { q: this.q, role: this.role };
		if (typed) {
			this.searching.soon(question);
		} else {
			this.searching.now(question);
		}
	}

	read({ q, role }, cursor) {
		const params = new URLSearchParams({ q });
		if (role) {
			params.set('role', role);
		}
		if (cursor) {
			params.set('cursor', cursor);
		}
		return get(`/search?${params}`);
	}

	showFirst(page) {
		replace(this.hits);
		this.shown = 0;
		this.take(page);
	}

	take(page) {
		this.hits.append(...page.items.map((hit) => this.hit(hit)));
		this.shown += page.items.length;
		this.nextCursor = page.nextCursor;
		this.partial.hidden = !page.partial;
		this.more.hidden = !this.nextCursor;
		replace(this.status, page.total === 0 ? `Nothing found for “${this.q}”.`
			: `${count(page.total)} ${page.total === 1 ? 'hit' : 'hits'}${this.shown < page.total ? `, ${count(this.shown)} shown` : ''}.`);
	}

	async loadMore() {
		try {
			const page = await this.searching.onward(() => this.read({ q: this.q, role: this.role }, this.nextCursor));
			if (page) {
				this.take(page);
			}
		} catch (failure) {
			notify(`More hits could not be read: ${failure.message}`, 'error'); // what is shown stays, and the button can be pressed again
		}
	}

	failed(failure) {
		replace(this.status, failure instanceof ApiError && failure.status === 400
			? `That search cannot be run: ${failure.message}` : `The search failed: ${failure.message}`);
		replace(this.hits);
		this.more.hidden = true;
	}

	/** One hit: a link to its session opened at the entry, which the tree puts under the cursor. */
	hit(hit) {
		const name = h('span', { className: 'hit-session' }, hit.sessionId);
		this.session(hit.sessionId).then((session) => {
			replace(name, session ? sessionName(session) : `${hit.sessionId} (deleted)`);
		});
		return h('li', { className: 'search-hit', 'data-session-id': hit.sessionId, 'data-entry-id': hit.entryId },
			h('a', { href: address(hit.sessionId, hit.entryId), className: 'hit-link' },
				h('span', { className: 'hit-head' }, name,
					h('span', { className: `hit-role kind-${hit.role}` }, hit.role),
					hit.timestamp ? h('time', { dateTime: hit.timestamp, title: hit.timestamp }, ago(hit.timestamp)) : null),
				h('span', { className: 'hit-snippet' }, highlighted(hit.snippet ?? '', hit.highlights))));
	}

	/** The session of a hit, read once however many hits it has; null when it is gone. */
	session(sessionId) {
		if (!this.sessions.has(sessionId)) {
			this.sessions.set(sessionId, get(`/sessions/${seg(sessionId)}`).catch(() => null));
		}
		return this.sessions.get(sessionId);
	}
}

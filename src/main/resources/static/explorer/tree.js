// The tree selector: the selector rows of GET /sessions/{id}/tree/rows (docs/API.md#tree), drawn as upstream's
// terminal selector draws them, virtualized: only the rows in sight are in the page, fetched in blocks by offset,
// so a 400,000-row view scrolls like a short one. Keyboard driven like the terminal selector.
import { call, seg } from './api.js';
import { count, h, replace } from './dom.js';

const FILTERS = [
	['default', 'Default'], ['no-tools', 'No tools'], ['user-only', 'User only'], ['labeled-only', 'Labeled'], ['all', 'All'],
];
const ROW_HEIGHT = 24;
const BLOCK = 200;
const OVERSCAN = 10;

export class TreeView {
	/**
	 * @param callbacks `onCursor(entryId, {push})` when the cursor moves to a row, `onNavigate(entryId)` for Enter,
	 * `onLabel(entryId, label)` for Shift+L, `onView({filter, q})` when the filter or the search changes
	 */
	constructor(sessionId, callbacks) {
		this.sessionId = sessionId;
		this.callbacks = callbacks;
		this.filter = 'default';
		this.q = '';
		this.rows = new Map();
		this.loading = new Set();
		this.matched = 0;
		this.cursor = -1;
		this.cursorId = null;
		this.generation = 0;
		this.firstRowsPending = true;
		this.filterButtons = FILTERS.map(([name, title]) => h('button', {
			type: 'button', className: 'filter', 'data-filter': name, onclick: () => this.callbacks.onView({ filter: name, q: this.q }),
		}, title));
		this.search = h('input', {
			type: 'search', className: 'search', placeholder: 'Search the tree', 'aria-label': 'Search the tree',
			oninput: () => this.callbacks.onView({ filter: this.filter, q: this.search.value }),
			onkeydown: (event) => {
				if (event.key === 'ArrowDown' || event.key === 'Enter') {
					event.preventDefault();
					this.viewport.focus();
				}
			},
		});
		this.layer = h('div', { className: 'rows-layer' });
		this.spacer = h('div', { className: 'rows-spacer' }, this.layer);
		this.viewport = h('div', {
			className: 'rows', tabIndex: 0, role: 'listbox', 'aria-label': 'Tree',
			onscroll: () => this.draw(), onkeydown: (event) => this.onKey(event),
		}, this.spacer);
		this.status = h('p', { className: 'tree-status muted', 'aria-live': 'polite' });
		this.element = h('section', { className: 'tree-panel' },
			h('div', { className: 'tree-toolbar' }, h('div', { className: 'filters', role: 'group', 'aria-label': 'Filter' }, this.filterButtons), this.search),
			this.viewport, this.status,
			h('p', { className: 'hint' }, '↑/↓ move · PgUp/PgDn or ←/→ page · Home/End · Enter navigate · Shift+L label · type to search · Esc clear · Ctrl+O next filter'));
		new ResizeObserver(() => this.draw()).observe(this.viewport);
	}

	/** Shows the view for a filter and search, opening on `entryId`'s row, else on the selected row (the leaf). */
	async show({ filter, q }, entryId) {
		const changed = filter !== this.filter || q !== this.q || this.version === undefined;
		this.filter = filter;
		this.q = q;
		if (this.search.value !== q && document.activeElement !== this.search) {
			this.search.value = q;
		}
		this.filterButtons.forEach((button) => button.setAttribute('aria-pressed', String(button.dataset.filter === filter)));
		if (changed) {
			await this.open(entryId ?? null, true);
		} else if (entryId && entryId !== this.cursorId) {
			await this.open(entryId, true);
		}
	}

	/** Re-reads the view after the session changed, keeping the cursor's row where it was on the screen. */
	refresh() {
		return this.open(this.cursorId, false);
	}

	/**
	 * Reads the page around a row (or the selected row) and starts over from it: the view's size, its version and
	 * the rows there. `centre` scrolls the cursor to the middle; otherwise it keeps its place on the screen.
	 */
	async open(entryId, centre) {
		const generation = ++this.generation;
		const place = entryId ? `around=${seg(entryId)}` : 'aroundSelected=true';
		const page = await this.fetch(`${place}&limit=${BLOCK}`);
		if (generation !== this.generation) {
			return;
		}
		const onScreen = (this.cursor - this.firstShown()) * ROW_HEIGHT;
		this.reset(page);
		const row = entryId ? page.rows.find((candidate) => candidate.id === entryId) : null;
		// an entry the view leaves out: the page is centred on its nearest ancestor that is a row
		const index = row ? row.index : entryId ? this.centreOf(page) : (page.selectedIndex ?? -1);
		this.setCursor(index, { quiet: true });
		if (centre || !(onScreen >= 0)) {
			this.viewport.scrollTop = Math.max(0, index * ROW_HEIGHT - this.viewport.clientHeight / 2);
		} else {
			this.viewport.scrollTop = Math.max(0, index * ROW_HEIGHT - onScreen);
		}
		this.draw();
		// the entry shown beside the tree is the cursor's: the selected row on opening, or the row that stands for an
		// entry the view leaves out
		if (this.cursorId && this.cursorId !== entryId) {
			this.callbacks.onCursor(this.cursorId, { push: false });
		}
	}

	centreOf(page) {
		return page.rows.length ? page.rows[Math.min(page.rows.length - 1, Math.floor(page.rows.length / 2))].index : -1;
	}

	reset(page) {
		this.rows.clear();
		this.loading.clear();
		this.version = page.version;
		this.matched = page.matched;
		this.total = page.total;
		this.take(page);
		this.spacer.style.height = `${this.matched * ROW_HEIGHT}px`;
		replace(this.status, this.q || this.filter !== 'all'
			? `${count(this.matched)} of ${count(this.total)} entries shown` : `${count(this.total)} entries`);
	}

	take(page) {
		for (const row of page.rows) {
			this.rows.set(row.index, row);
		}
	}

	async fetch(place) {
		const params = new URLSearchParams({ filter: this.filter });
		if (this.q) {
			params.set('q', this.q);
		}
		const answer = await call('GET', `/sessions/${seg(this.sessionId)}/tree/rows?${params}&${place}`);
		this.etag = answer.etag;
		return answer.body;
	}

	/** Fetches the block of rows holding `index`; a view that changed meanwhile is read again from the cursor. */
	async load(block) {
		if (this.loading.has(block)) {
			return;
		}
		this.loading.add(block);
		const generation = this.generation;
		try {
			const page = await this.fetch(`offset=${block * BLOCK}&limit=${BLOCK}`);
			if (generation !== this.generation) {
				return;
			}
			if (page.version !== this.version) {
				await this.refresh();
				return;
			}
			this.take(page);
			this.draw();
		} finally {
			this.loading.delete(block);
		}
	}

	firstShown() {
		return Math.floor(this.viewport.scrollTop / ROW_HEIGHT);
	}

	pageSize() {
		return Math.max(1, Math.floor(this.viewport.clientHeight / ROW_HEIGHT) - 1);
	}

	/** Draws the rows in sight (and a few around them), asking for the blocks not read yet. */
	draw() {
		if (this.pendingDraw) {
			return;
		}
		this.pendingDraw = requestAnimationFrame(() => {
			this.pendingDraw = null;
			const first = Math.max(0, this.firstShown() - OVERSCAN);
			const last = Math.min(this.matched, this.firstShown() + Math.ceil(this.viewport.clientHeight / ROW_HEIGHT) + OVERSCAN);
			const drawn = [];
			for (let index = first; index < last; index++) {
				const row = this.rows.get(index);
				if (row) {
					drawn.push(this.rowElement(row));
				} else {
					const placeholder = h('div', { className: 'row placeholder' }, '…');
					placeholder.style.top = `${index * ROW_HEIGHT}px`;
					drawn.push(placeholder);
					this.load(Math.floor(index / BLOCK));
				}
			}
			replace(this.layer, drawn);
			if (this.firstRowsPending && this.rows.size) {
				// what the browser test times: from opening the session to its first screen of rows
				this.firstRowsPending = false;
				performance.mark('arbor:first-rows');
			}
		});
	}

	rowElement(row) {
		const classes = ['row'];
		if (row.onActivePath) classes.push('active-path');
		if (row.isLeaf) classes.push('leaf');
		if (row.index === this.cursor) classes.push('cursor');
		const element = h('div', {
			className: classes.join(' '), id: `row-${row.index}`, role: 'option', 'aria-selected': String(row.index === this.cursor),
			'data-entry-id': row.id, 'data-index': row.index,
			onclick: () => { this.setCursor(row.index); this.viewport.focus(); },
			ondblclick: () => this.callbacks.onNavigate(row.id),
		}, h('span', { className: 'prefix' }, prefix(row)),
		row.onActivePath ? h('span', { className: 'path-mark' }, '• ') : null,
		row.label ? h('span', { className: 'label', title: row.labelTimestamp ?? '' }, row.label) : null,
		rowText(row),
		row.isLeaf ? h('span', { className: 'leaf-mark' }, 'leaf') : null);
		element.style.top = `${row.index * ROW_HEIGHT}px`;
		return element;
	}

	/** Moves the cursor to a row and into sight; tells the view which entry it is on, once that row is read. */
	setCursor(index, { quiet = false, push = true } = {}) {
		if (index < 0 || this.matched === 0) {
			this.cursor = -1;
			this.cursorId = null;
			return;
		}
		this.cursor = Math.max(0, Math.min(this.matched - 1, index));
		const top = this.cursor * ROW_HEIGHT;
		if (top < this.viewport.scrollTop) {
			this.viewport.scrollTop = top;
		} else if (top + ROW_HEIGHT > this.viewport.scrollTop + this.viewport.clientHeight) {
			this.viewport.scrollTop = top + ROW_HEIGHT - this.viewport.clientHeight;
		}
		this.viewport.setAttribute('aria-activedescendant', `row-${this.cursor}`);
		const row = this.rows.get(this.cursor);
		this.cursorId = row?.id ?? null;
		this.draw();
		if (!quiet) {
			this.announce(push);
		}
	}

	/** Reports the cursor's entry; for a row not read yet, once its block has come. */
	async announce(push) {
		const wanted = this.cursor;
		const generation = this.generation;
		while (!this.rows.has(wanted)) {
			await this.load(Math.floor(wanted / BLOCK));
			if (generation !== this.generation || wanted !== this.cursor) {
				return;
			}
		}
		this.cursorId = this.rows.get(wanted).id;
		this.callbacks.onCursor(this.cursorId, { push });
	}

	onKey(event) {
		if (event.target !== this.viewport) {
			return;
		}
		const page = this.pageSize();
		const last = this.matched - 1;
		const moves = {
			ArrowUp: () => (this.cursor <= 0 ? last : this.cursor - 1),
			ArrowDown: () => (this.cursor >= last ? 0 : this.cursor + 1),
			PageUp: () => this.cursor - page, ArrowLeft: () => this.cursor - page,
			PageDown: () => this.cursor + page, ArrowRight: () => this.cursor + page,
			Home: () => 0, End: () => last,
		};
		if (moves[event.key] && !event.ctrlKey && !event.altKey && !event.metaKey) {
			event.preventDefault();
			this.setCursor(moves[event.key](), { push: false });
		} else if (event.key === 'Enter' && this.cursorId) {
			event.preventDefault();
			this.callbacks.onNavigate(this.cursorId);
		} else if (event.key === 'L' && event.shiftKey && !event.ctrlKey && !event.altKey && this.cursorId) {
			event.preventDefault();
			this.callbacks.onLabel(this.cursorId, this.rows.get(this.cursor)?.label ?? '');
		} else if (event.key.toLowerCase() === 'o' && event.ctrlKey) {
			event.preventDefault();
			const names = FILTERS.map(([name]) => name);
			const step = event.shiftKey ? names.length - 1 : 1;
			this.callbacks.onView({ filter: names[(names.indexOf(this.filter) + step) % names.length], q: this.q });
		} else if (event.key === 'Escape' && this.q) {
			event.preventDefault();
			this.typeInSearch('');
		} else if (event.key === 'Backspace' && this.q) {
			event.preventDefault();
			this.typeInSearch(this.search.value.slice(0, -1));
		} else if (event.key.length === 1 && !event.ctrlKey && !event.altKey && !event.metaKey) {
			event.preventDefault();
			this.typeInSearch(this.search.value + event.key);
		}
	}

	/** Typing in the tree searches, as in the terminal selector, while the keys keep moving the cursor. */
	typeInSearch(value) {
		this.search.value = value;
		this.callbacks.onView({ filter: this.filter, q: value });
	}
}

/**
 * The row's text as the API gives it, which is upstream's (docs/SESSION-FORMAT.md#the-selector-rows): a message's
 * `user: ` or `assistant: ` set apart to be coloured as upstream colours it. A type upstream writes nothing for
 * shows its name, dimmed, from the stylesheet, so the text itself stays upstream's.
 */
function rowText(row) {
	const role = row.role === 'user' || row.role === 'assistant' ? `${row.role}: ` : null;
	const attributes = { className: `text text-${row.role ?? row.type}`, 'data-type': row.type };
	if (role && row.text.startsWith(role)) {
		return h('span', attributes, h('span', { className: `kind kind-${row.role}` }, role), row.text.slice(role.length));
	}
	return h('span', attributes, row.text);
}

/**
 * The row's indentation as upstream's selector draws it: three characters a column, a guide (│) where an ancestor
 * has a later sibling, and on the last column the connector (├ or └, then ⊟ when the row has children, else ─).
 */
function prefix(row) {
	let text = '';
	const guides = new Set(row.guides);
	for (let column = 0; column < row.depth; column++) {
		if (guides.has(column)) {
			text += '│  ';
		} else if (column === row.depth - 1 && row.connector) {
			text += `${row.connector === 'branch' ? '├' : '└'}${row.childCount > 0 ? '⊟' : '─'} `;
		} else {
			text += '   ';
		}
	}
	return text;
}

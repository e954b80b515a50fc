// One entry: its message rendered, its label, its children, its path from the root, and the model context at it
// (agent and llm views), with what can be done from it.
import { ApiError, get, seg } from './api.js';
import { count, h, replace } from './dom.js';
import { preview, renderEntry, renderMessage } from './message.js';
import { address } from './routes.js';

/** Paths and contexts of more entries than this are read only when asked for: they can be as large as the file. */
const LARGE = 5000;

export class EntryPanel {
	/** @param view the session view: `sessionId`, `session`, `actions`, `query()` */
	constructor(view) {
		this.view = view;
		this.body = h('div', { className: 'entry-body' });
		this.element = h('section', { className: 'entry-panel', 'aria-label': 'Entry' }, this.body);
		this.empty();
	}

	empty() {
		this.entryId = null;
		replace(this.body, h('p', { className: 'muted' }, 'Choose an entry in the tree to see it here.'));
	}

	async show(entryId) {
		this.entryId = entryId;
		let answer;
		try {
			answer = await get(`/sessions/${seg(this.view.sessionId)}/entries/${seg(entryId)}`);
		} catch (failure) {
			if (entryId === this.entryId) {
				replace(this.body, h('p', { className: 'error' }, failure instanceof ApiError && failure.status === 404
					? `This session has no entry ${entryId}.` : `The entry could not be read: ${failure.message}`));
			}
			return;
		}
		if (entryId !== this.entryId) {
			return; // the cursor moved on while this was read
		}
		const { entry, label, childIds } = answer;
		const actions = this.view.actions;
		const isUser = entry.type === 'message' && entry.message?.role === 'user';
		this.tabs = new Map();
		this.tabBody = h('div', { className: 'tab-body' });
		const tab = (name, title, render) => {
			const button = h('button', { type: 'button', role: 'tab', className: 'tab', 'data-tab': name, onclick: () => this.select(name) }, title);
			this.tabs.set(name, { button, render });
			return button;
		};
		replace(this.body,
			h('header', { className: 'entry-head' },
				h('h2', {}, `${entry.type}${entry.message?.role ? ` · ${entry.message.role}` : ''}`),
				h('code', { className: 'entry-id' }, entry.id),
				h('time', { dateTime: entry.timestamp }, entry.timestamp ?? ''),
				label ? h('span', { className: 'label' }, label) : null,
				entry.id === this.view.session?.leafId ? h('span', { className: 'leaf-mark' }, 'leaf') : null),
			h('div', { className: 'entry-actions' },
				h('button', { type: 'button', className: 'primary', onclick: () => actions.navigate(entry.id) }, 'Navigate here…'),
				h('button', { type: 'button', onclick: () => actions.label(entry.id, label) }, label ? 'Edit label…' : 'Label…'),
				isUser ? h('button', { type: 'button', onclick: () => actions.branch(entry.id), title: 'A new session with the path up to this message, the message ready to send again' }, 'Branch from here') : null,
				h('button', { type: 'button', onclick: () => actions.branchedSession(entry.id), title: 'A new session with the path from the root to this entry' }, 'New session up to here')),
			h('div', { className: 'tabs', role: 'tablist' },
				tab('message', 'Entry', async () => [renderEntry(entry), await this.children(entry, childIds)]),
				tab('path', 'Path', () => this.path(entry.id)),
				tab('context', 'Context', () => this.context(entry.id, 'agent')),
				tab('llm', 'Context (llm)', () => this.context(entry.id, 'llm'))),
			this.tabBody);
		this.select(this.tabs.has(this.current) ? this.current : 'message');
	}

	/** Shows a tab; the one chosen stays chosen as the cursor moves from entry to entry. */
	async select(name) {
		this.current = name;
		for (const [tabName, { button }] of this.tabs) {
			button.setAttribute('aria-selected', String(tabName === name));
		}
		replace(this.tabBody, h('p', { className: 'muted' }, 'Loading…'));
		const shown = this.entryId;
		try {
			const content = await this.tabs.get(name).render();
			if (shown === this.entryId && this.current === name) {
				replace(this.tabBody, content);
			}
		} catch (failure) {
			replace(this.tabBody, h('p', { className: 'error' }, failure.message));
		}
	}

	async children(entry, childIds) {
		if (!childIds.length) {
			return h('p', { className: 'muted' }, 'No children.');
		}
		const children = await get(`/sessions/${seg(this.view.sessionId)}/entries/${seg(entry.id)}/children`);
		return h('section', { className: 'children' }, h('h3', {}, `Children (${children.length})`),
			h('ul', {}, children.map((child) => h('li', {}, this.link(child)))));
	}

	link(entry) {
		return h('a', { href: address(this.view.sessionId, entry.id, this.view.query()) },
			h('code', {}, entry.id), ' ', preview(entry));
	}

	/** Large reads wait for a click: a path or context of a 400,000-entry session is as large as its file. */
	async whenAsked(what, read) {
		if ((this.view.session?.entryCount ?? 0) <= LARGE) {
			return read();
		}
		return new Promise((resolve) => {
			resolve(h('p', {}, `This session has ${count(this.view.session.entryCount)} entries: its ${what} may be as large. `,
				h('button', { type: 'button', onclick: async (event) => event.target.parentElement.replaceWith(await read()) }, `Read the ${what}`)));
		});
	}

	path(entryId) {
		return this.whenAsked('path', async () => {
			const path = await get(`/sessions/${seg(this.view.sessionId)}/entries/${seg(entryId)}/path`);
			const shown = path.slice(-500);
			return h('section', { className: 'path' }, h('h3', {}, `Path from the root (${count(path.length)} entries)`),
				path.length > shown.length ? h('p', { className: 'muted' }, `The first ${count(path.length - shown.length)} are left out.`) : null,
				h('ol', { start: path.length - shown.length + 1 }, shown.map((step) => h('li', {}, this.link(step)))));
		});
	}

	context(entryId, format) {
		return this.whenAsked('context', async () => {
			const context = await get(`/sessions/${seg(this.view.sessionId)}/context?leafId=${seg(entryId)}&format=${format}`);
			const shown = context.messages.slice(-200);
			return h('section', { className: 'context' },
				h('h3', {}, `What the model sees here (${format}): ${count(context.messages.length)} messages`),
				h('p', { className: 'muted' }, `Thinking level ${context.thinkingLevel ?? 'off'}${context.models?.default ? ` · model ${context.models.default}` : ''}`),
				context.messages.length > shown.length ? h('p', { className: 'muted' }, `The first ${count(context.messages.length - shown.length)} are left out.`) : null,
				shown.map((message) => h('article', { className: 'entry' }, renderMessage(message))));
		});
	}
}

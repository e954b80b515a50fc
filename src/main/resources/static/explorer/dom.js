// Builds the page from elements and text nodes only. Session content is untrusted (model and tool output), so
// nothing here ever parses a string as HTML: there is no innerHTML anywhere in the explorer.

/**
 * Makes an element. `attrs` sets properties (`className`, `hidden`, `onclick`…) or, for names with a dash
 * (`data-…`, `aria-…`), attributes; children are elements, strings (added as text) or null (skipped).
 */
export function h(tag, attrs = {}, ...children) {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attrs ?? {})) {
		if (value === undefined || value === null || value === false) {
			continue;
		}
		if (name.includes('-')) {
			element.setAttribute(name, value === true ? '' : String(value));
		} else {
			element[name] = value;
		}
	}
	append(element, children);
	return element;
}

function append(element, children) {
	for (const child of children) {
		if (child === null || child === undefined || child === false) {
			continue;
		}
		if (Array.isArray(child)) {
			append(element, child);
		} else if (child instanceof Node) {
			element.append(child);
		} else {
			element.append(document.createTextNode(String(child)));
		}
	}
}

/** Replaces everything in `element` with `children`. */
export function replace(element, ...children) {
	element.replaceChildren();
	append(element, children);
	return element;
}

/** "3 minutes ago" for an ISO timestamp; the exact time goes in the element's title. */
export function ago(iso) {
	if (!iso) {
		return '';
	}
	const seconds = Math.round((Date.now() - Date.parse(iso)) / 1000);
	const units = [[60, 'second'], [60, 'minute'], [24, 'hour'], [30, 'day'], [12, 'month'], [Infinity, 'year']];
	let value = Math.max(0, seconds);
	for (const [size, unit] of units) {
		if (value < size) {
			return value === 0 && unit === 'second' ? 'just now' : `${value} ${unit}${value === 1 ? '' : 's'} ago`;
		}
		value = Math.floor(value / size);
	}
	return iso;
}

/** Thousands separated, as people read counts. */
export function count(n) {
	return Number(n).toLocaleString('en-US');
}

/** Shows a short message at the top of the page; errors stay until dismissed or replaced. */
export function notify(message, kind = 'info') {
	const notice = document.getElementById('notice');
	const close = h('button', { type: 'button', className: 'link', onclick: () => { notice.hidden = true; } }, 'Dismiss');
	replace(notice, h('span', {}, message), ' ', close);
	notice.dataset.kind = kind;
	notice.hidden = false;
	clearTimeout(notify.timer);
	if (kind !== 'error') {
		notify.timer = setTimeout(() => { notice.hidden = true; }, 6000);
	}
}

/**
 * A modal dialog built from `content`; resolves with what `onSubmit` returns, or null when it is cancelled
 * (Escape, the Cancel button). `onSubmit` may throw to keep the dialog open; its message is shown in the dialog.
 */
export function dialog(title, content, { submitLabel = 'OK', onSubmit = () => true, danger = false, cancellable = true } = {}) {
	return new Promise((resolve) => {
		const error = h('p', { className: 'dialog-error', role: 'alert', hidden: true });
		const submit = h('button', { type: 'submit', className: danger ? 'danger' : 'primary' }, submitLabel);
		const cancel = cancellable ? h('button', { type: 'button', onclick: () => close(null) }, 'Cancel') : null;
		const form = h('form', { method: 'dialog' }, h('h2', {}, title), content, error,
			h('div', { className: 'dialog-buttons' }, cancel, submit));
		const box = h('dialog', { className: 'modal' }, form);
		let settled = false;
		function close(value) {
			if (!settled) {
				settled = true;
				box.close();
				box.remove();
				resolve(value);
			}
		}
		box.addEventListener('cancel', (event) => { event.preventDefault(); close(null); });
		form.addEventListener('submit', async (event) => {
			event.preventDefault();
			submit.disabled = true;
			try {
				close(await onSubmit());
			} catch (failure) {
				error.textContent = failure.message;
				error.hidden = false;
			} finally {
				submit.disabled = false;
			}
		});
		document.body.append(box);
		box.showModal();
		(box.querySelector('[autofocus]') ?? submit).focus();
	});
}

/**
 * `text` with the ranges `[start, end)` (UTF-16 offsets, in order, as GET /search answers them) in `<mark>`
 * elements: text nodes and elements only, so markup in the text stays characters. Ranges out of the text or
 * overlapping the one before are cut to what is left.
 */
export function highlighted(text, ranges) {
	const parts = [];
	let at = 0;
	for (const [start, end] of ranges ?? []) {
		const from = Math.max(at, Math.min(start, text.length));
		const to = Math.min(Math.max(end, from), text.length);
		if (to > from) {
			if (from > at) {
				parts.push(text.slice(at, from));
			}
			parts.push(h('mark', {}, text.slice(from, to)));
			at = to;
		}
	}
	if (at < text.length) {
		parts.push(text.slice(at));
	}
	return parts;
}

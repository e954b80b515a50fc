// The explorer's entry point: shows the view the address names (routes.js), and the next one when it changes.
import { forgetKey, apiKey } from './api.js';
import { h, replace } from './dom.js';
import { SessionList } from './sessions.js';
import { SearchView } from './search.js';
import { SessionView } from './session.js';
import { route } from './routes.js';

const view = document.getElementById('view');
let current = null;

function show() {
	const next = route();
	if (current?.accepts(next)) {
		current.update(next);
		return;
	}
	current?.unmount();
	current = null;
	if (next.name === 'sessions') {
		current = new SessionList(view, next);
	} else if (next.name === 'search') {
		current = new SearchView(view, next);
	} else if (next.name === 'session') {
		current = new SessionView(view, next);
	} else {
		replace(view, h('section', { className: 'empty' }, h('h1', {}, 'Nothing here'),
			h('p', {}, 'This address names no view of the explorer. '), h('a', { href: '#/' }, 'All sessions')));
	}
}

function showKeyButton() {
	document.getElementById('forget-key').hidden = apiKey() === null;
}

document.getElementById('forget-key').addEventListener('click', () => {
	forgetKey();
	showKeyButton();
	location.reload();
});
document.addEventListener('arbor:key', showKeyButton);
window.addEventListener('hashchange', show);
window.addEventListener('arbor:route', show);
showKeyButton();
show();

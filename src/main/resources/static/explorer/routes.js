// Every view has an address in the fragment, so that it can be shared and the browser's back button works:
// #/ (the sessions, ?q=&sort=), #/search (?q=&role=), #/sessions/{id} and #/sessions/{id}/entries/{entryId}
// (?filter=&q=).

/** The route in the address: `{name, sessionId, entryId, query}`. */
export function route() {
	const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
	const parts = path.split('/').filter(Boolean).map(decoded);
	const query = new URLSearchParams(search);
	if (parts.length === 1 && parts[0] === 'search') {
		return { name: 'search', query };
	}
	if (parts[0] === 'sessions' && parts[1]) {
		return { name: 'session', sessionId: parts[1], entryId: parts[2] === 'entries' ? parts[3] ?? null : null, query };
	}
	return { name: parts.length ? 'unknown' : 'sessions', query };
}

/** The address of a view; `query` is an object of parameters, empty ones left out. */
export function address(sessionId, entryId, query = {}) {
	let path = '#/';
	if (sessionId) {
		path += `sessions/${encodeURIComponent(sessionId)}`;
		if (entryId) {
			path += `/entries/${encodeURIComponent(entryId)}`;
		}
	}
	return withQuery(path, query);
}

/** The address of the search across sessions. */
export function searchAddress(query = {}) {
	return withQuery('#/search', query);
}

function withQuery(path, query) {
	const params = new URLSearchParams(Object.entries(query).filter(([, value]) => value));
	return params.size ? `${path}?${params}` : path;
}

/** Goes to an address: a new history entry, or (`replace`) the current one rewritten, for state like a search. */
export function go(target, { replace: rewrite = false } = {}) {
	if (target === location.hash) {
		return;
	}
	if (rewrite) {
		history.replaceState(null, '', target);
		window.dispatchEvent(new Event('arbor:route'));
	} else {
		location.hash = target;
	}
}

function decoded(part) {
	try {
		return decodeURIComponent(part);
	} catch {
		return part; // a malformed escape: the id check of the API will refuse it, with a message to show
	}
}

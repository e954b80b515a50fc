// The explorer's only way to Arbor: its public HTTP API, as any frontend would call it (docs/API.md).
import { dialog, h } from './dom.js';

const KEY = 'arbor.apiKey';

/** An answer that was not 2xx, with its RFC 9457 problem document. */
export class ApiError extends Error {
	constructor(status, problem) {
		super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
		this.status = status;
		this.problem = problem ?? {};
		this.type = (this.problem.type ?? '').replace(/^.*\/problems\//, '');
	}

	/** Someone else moved the leaf since this page read it (If-Match failed). */
	get leafMoved() {
		return this.status === 412;
	}
}

/** The API key, kept for this tab only (sessionStorage): closing the tab forgets it. */
export function apiKey() {
	return sessionStorage.getItem(KEY);
}

export function forgetKey() {
	sessionStorage.removeItem(KEY);
}

let asking = null;

/** Asks for a key once, however many requests were refused at the same time. */
function askForKey(refused) {
	if (!asking) {
		const input = h('input', { type: 'password', name: 'key', autocomplete: 'off', required: true, autofocus: true, 'aria-label': 'API key' });
		const text = refused ? 'That key was not accepted. Enter another API key:' : 'This Arbor needs an API key. It is kept for this tab only.';
		asking = dialog('API key', [h('p', {}, text), input], {
			submitLabel: 'Use key',
			onSubmit: () => input.value.trim(),
		}).then((key) => {
			asking = null;
			if (key) {
				sessionStorage.setItem(KEY, key);
				document.dispatchEvent(new CustomEvent('arbor:key'));
			}
			return key;
		});
	}
	return asking;
}

/**
 * Calls the API. Returns `{status, etag, body}`, `body` parsed from JSON when it is JSON. `ifMatch` is the ETag to
 * send as If-Match. A 401 asks for a key and tries again; any other failure throws an ApiError.
 */
export async function call(method, path, { json, body, contentType, ifMatch, accept = 'application/json', raw = false } = {}) {
	for (;;) {
		const headers = { Accept: accept };
		const key = apiKey();
		if (key) {
			headers.Authorization = `Bearer ${key}`;
		}
		if (ifMatch) {
			headers['If-Match'] = ifMatch;
		}
		if (json !== undefined) {
			headers['Content-Type'] = 'application/json';
			body = JSON.stringify(json);
		} else if (contentType) {
			headers['Content-Type'] = contentType;
		}
		const response = await fetch(path, { method, headers, body, cache: 'no-store' });
		if (response.status === 401) {
			if (await askForKey(Boolean(key))) {
				continue;
			}
			throw new ApiError(401, await problemOf(response));
		}
		if (!response.ok) {
			throw new ApiError(response.status, await problemOf(response));
		}
		const etag = response.headers.get('ETag');
		if (raw) {
			return { status: response.status, etag, response };
		}
		const type = response.headers.get('Content-Type') ?? '';
		const parsed = response.status === 204 ? null : type.includes('json') ? await response.json() : await response.text();
		return { status: response.status, etag, body: parsed };
	}
}

async function problemOf(response) {
	try {
		return await response.json();
	} catch {
		return { title: response.statusText, status: response.status };
	}
}

export const get = (path) => call('GET', path).then((answer) => answer.body);

/** A session id or entry id in a path: ids are restricted to URL-safe characters, but any string is encoded. */
export const seg = encodeURIComponent;

/**
 * An event stream's URL. EventSource cannot send headers, so the key goes as access_token (the streams are the only
 * endpoints that take one there); lastEventId resumes a stream that had to be opened again.
 */
export function eventsUrl(path, lastEventId) {
	const params = new URLSearchParams();
	const key = apiKey();
	if (key) {
		params.set('access_token', key);
	}
	if (lastEventId) {
		params.set('lastEventId', lastEventId);
	}
	const query = params.toString();
	return query ? `${path}?${query}` : path;
}

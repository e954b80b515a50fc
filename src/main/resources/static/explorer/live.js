// Live updates over Server-Sent Events. EventSource reconnects by itself after a dropped connection, sending
// Last-Event-ID, so Arbor replays what was missed. When the browser gives up (the server answered an error), or has
// not got the stream back within a few seconds, the stream is opened again here with ?lastEventId=, which does the
// same.
import { eventsUrl } from './api.js';

const TYPES = ['entry_appended', 'leaf_changed', 'label_changed', 'session_before_tree', 'session_tree',
	'session_before_branch', 'session_branch', 'session_created', 'session_deleted', 'session_reloaded', 'session_renamed',
	'resync'];

const streams = new Set();

/** After a stream was refused (an error status, or the server was down when the browser retried). */
const RETRY_MS = 2000;

/** How long a dropped stream is left to the browser's own reconnection. */
const WATCHDOG_MS = 5000;

/** Follows one stream; `onEvent(type, data, id)` for each event. Returns an object with close(). */
export function follow(path, onEvent) {
	let source = null;
	let lastEventId = null;
	let retry = null;
	let closed = false;
	let opened = false;
	const stream = { state: 'connecting', path };

	function open() {
		source = new EventSource(eventsUrl(path, lastEventId));
		setState('connecting');
		source.onopen = () => {
			clearTimeout(retry);
			if (opened && !lastEventId) {
				// back without an event id to resume from, so what happened meanwhile cannot be replayed: the view
				// reads everything again, as after Arbor's own resync
				onEvent('resync', { reason: 'reconnected' }, null);
			}
			opened = true;
			setState('live');
		};
		source.onerror = () => {
			clearTimeout(retry);
			if (source.readyState === EventSource.CLOSED) {
				setState('offline');
				retry = setTimeout(reopen, RETRY_MS);
			} else {
				// the browser retries by itself, on a schedule of its own that the standard lets it stretch (backing off
				// after failures): past a few seconds the stream is opened again here
				setState('reconnecting');
				retry = setTimeout(reopen, WATCHDOG_MS);
			}
		};
		for (const type of TYPES) {
			source.addEventListener(type, (event) => {
				lastEventId = event.lastEventId || lastEventId;
				onEvent(type, JSON.parse(event.data), event.lastEventId);
			});
		}
	}

	function reopen() {
		source.close();
		open();
	}

	function setState(state) {
		stream.state = state;
		showState();
	}

	stream.close = () => {
		closed = true;
		clearTimeout(retry);
		source?.close();
		streams.delete(stream);
		showState();
	};
	/** Opens again with the same resume point, e.g. once an API key was entered. */
	stream.reopen = () => {
		if (!closed) {
			clearTimeout(retry);
			reopen();
		}
	};
	streams.add(stream);
	open();
	return stream;
}

document.addEventListener('arbor:key', () => streams.forEach((stream) => stream.reopen()));

/** The header's indicator: the worst state of the streams this view follows. */
function showState() {
	const order = ['offline', 'reconnecting', 'connecting', 'live'];
	let state = 'idle';
	for (const stream of streams) {
		if (state === 'idle' || order.indexOf(stream.state) < order.indexOf(state)) {
			state = stream.state;
		}
	}
	const indicator = document.getElementById('live-state');
	indicator.dataset.state = state;
	indicator.textContent = `live: ${state}`;
	indicator.title = `Live updates: ${state}`;
}

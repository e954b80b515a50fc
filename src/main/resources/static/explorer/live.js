// Live updates over Server-Sent Events. EventSource reconnects by itself after a dropped connection, sending
// Last-Event-ID, so Arbor replays what was missed. When the browser gives up (the server answered an error, or
// was down when it retried), the stream is opened again after a pause with ?lastEventId=, which does the same.
import { eventsUrl } from './api.js';

const TYPES = ['entry_appended', 'leaf_changed', 'label_changed', 'session_before_tree', 'session_tree',
	'session_before_branch', 'session_branch', 'session_created', 'session_deleted', 'session_reloaded', 'resync'];

const streams = new Set();

/** Follows one stream; `onEvent(type, data, id)` for each event. Returns an object with close(). */
export function follow(path, onEvent) {
	let source = null;
	let lastEventId = null;
	let retry = null;
	let closed = false;
	const stream = { state: 'connecting', path };

	function open() {
		source = new EventSource(eventsUrl(path, lastEventId));
		setState('connecting');
		source.onopen = () => setState('live');
		source.onerror = () => {
			if (source.readyState === EventSource.CLOSED) {
				setState('offline');
				retry = setTimeout(open, 2000);
			} else {
				setState('reconnecting');
			}
		};
		for (const type of TYPES) {
			source.addEventListener(type, (event) => {
				lastEventId = event.lastEventId || lastEventId;
				onEvent(type, JSON.parse(event.data), event.lastEventId);
			});
		}
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
			source?.close();
			open();
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

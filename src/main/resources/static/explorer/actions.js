// What the explorer changes in a session: navigate (with the dry run first, and an abort while a summary is
// written), labels, and new sessions from an entry. Every change carries If-Match with the last ETag the page saw;
// when someone else moved the leaf meanwhile (412), nothing was changed and the view reads the session again.
import { ApiError, call, seg } from './api.js';
import { count, dialog, h, notify } from './dom.js';
import { address, go } from './routes.js';

export class SessionActions {
	/** @param view the session view: `sessionId`, `etag`, `reload()` */
	constructor(view) {
		this.view = view;
	}

	path(suffix) {
		return `/sessions/${seg(this.view.sessionId)}${suffix}`;
	}

	/** Runs a change and answers `{status, etag, body}`; a 412 is explained, the view refreshed, and it answers null. */
	async change(method, suffix, options = {}) {
		try {
			const answer = await call(method, this.path(suffix), { ifMatch: this.view.etag, ...options });
			if (answer.etag) {
				this.view.etag = answer.etag;
			}
			return answer;
		} catch (failure) {
			if (failure instanceof ApiError && failure.leafMoved) {
				notify(`Someone else changed this session meanwhile: its leaf is now ${failure.problem.leafId ?? 'before the first entry'}. Nothing was changed; the view now shows the session as it is.`, 'error');
				await this.view.reload();
				return null;
			}
			throw failure;
		}
	}

	/** Enter on a row: shows what navigating there does (a dry run), then does it, with a summary if asked. */
	async navigate(targetId) {
		// The navigation is made against the state its preparation showed: a change made meanwhile is a 412.
		const ifMatch = this.view.etag;
		let preparation;
		try {
			preparation = (await this.change('POST', '/navigate?dryRun=true', { json: { targetId }, ifMatch }))?.body;
		} catch (failure) {
			notify(`Cannot navigate there: ${failure.message}`, 'error');
			return;
		}
		if (!preparation) {
			return;
		}
		const abandoned = preparation.entryIdsToSummarize.length;
		const summarize = h('input', { type: 'checkbox', name: 'summarize', disabled: abandoned === 0 });
		const instructions = h('textarea', { name: 'instructions', rows: 3, placeholder: 'Optional instructions for the summary' });
		const abort = h('button', { type: 'button', className: 'danger', hidden: true }, 'Abort summary');
		const running = h('p', { className: 'muted', hidden: true, role: 'status' }, 'Writing the summary…');
		const facts = h('dl', { className: 'facts' },
			h('dt', {}, 'Leaf now'), h('dd', {}, preparation.oldLeafId ?? '(none)'),
			h('dt', {}, 'New leaf'), h('dd', {}, preparation.newLeafId ?? '(none: the next entry starts a new root)'),
			h('dt', {}, 'Branch left behind'), h('dd', {}, abandoned ? `${count(abandoned)} entries after ${preparation.commonAncestorId ?? 'the start'}` : 'nothing (the target is on the current path)'),
			preparation.editorText != null ? [h('dt', {}, 'Text for the editor'), h('dd', { className: 'editor-text' }, preparation.editorText)] : null);
		const outcome = await dialog('Navigate', [facts,
			h('label', { className: 'check' }, summarize, ' Summarize the branch left behind'), instructions, running, abort], {
			submitLabel: 'Navigate',
			onSubmit: () => this.runNavigation(targetId, ifMatch, summarize.checked, instructions.value.trim(), abort, running),
		});
		if (outcome) {
			await this.view.reload();
			await this.showOutcome(outcome);
		}
	}

	async runNavigation(targetId, ifMatch, summarize, customInstructions, abort, running) {
		const requestId = crypto.randomUUID();
		if (summarize) {
			running.hidden = false;
			abort.hidden = false;
			abort.onclick = () => call('DELETE', this.path(`/navigations/${seg(requestId)}`)).catch((failure) => {
				running.textContent = `The abort was not taken: ${failure.message}`;
			});
		}
		try {
			const answer = await this.change('POST', '/navigate?context=false', {
				json: { targetId, summarize, customInstructions: customInstructions || null, requestId }, ifMatch,
			});
			return answer?.body ?? null;
		} finally {
			running.hidden = true;
			abort.hidden = true;
		}
	}

	async showOutcome(outcome) {
		if (outcome.cancelled) {
			notify(outcome.aborted ? 'The navigation was aborted; nothing was changed.' : 'A hook cancelled the navigation; nothing was changed.');
			return;
		}
		const parts = [h('p', {}, `The leaf moved from ${outcome.oldLeafId ?? '(none)'} to ${outcome.newLeafId ?? '(none)'}.`)];
		if (outcome.editorText != null) {
			const text = h('textarea', { className: 'editor-text', readOnly: true, rows: 4, value: outcome.editorText, 'aria-label': 'Text for the editor' });
			parts.push(h('p', {}, 'The message you left, to edit and send again:'), text,
				h('button', { type: 'button', onclick: () => navigator.clipboard.writeText(outcome.editorText).then(() => notify('Copied.')) }, 'Copy'));
		}
		if (outcome.summaryEntry) {
			parts.push(h('p', {}, `Summary written${outcome.fromExtension ? ' by a hook' : ''} (${outcome.summaryEntry.id}):`),
				h('blockquote', { className: 'summary text' }, String(outcome.summaryEntry.summary ?? '')));
		}
		await dialog('Navigated', parts, { submitLabel: 'Close', cancellable: false });
	}

	/** Shift+L on a row, or the entry's Label button: sets the label, or clears it when left blank. */
	async label(entryId, current) {
		const ifMatch = this.view.etag;
		const input = h('input', { name: 'label', value: current ?? '', autofocus: true, 'aria-label': 'Label', placeholder: 'Empty to remove' });
		const done = await dialog(`Label ${entryId}`, [input], {
			submitLabel: 'Save',
			onSubmit: async () => {
				const label = input.value.trim();
				const suffix = `/labels/${seg(entryId)}`;
				const answer = label ? await this.change('PUT', suffix, { json: { label }, ifMatch }) : await this.change('DELETE', suffix, { ifMatch });
				return answer ? { label } : 'refreshed';
			},
		});
		if (done && done !== 'refreshed') {
			notify(done.label ? `Labelled “${done.label}”.` : 'Label removed.');
			await this.view.reload();
		}
	}

	/** A new session from a user message: its path up to the message's parent, the message back in the editor. */
	async branch(entryId) {
		await this.newSession(() => call('POST', this.path('/branch'), { json: { entryId } }).then((answer) => answer.body), (body) => {
			if (body.cancelled) {
				notify('A hook cancelled the branch; no session was made.');
				return null;
			}
			notify(body.selectedText ? `Branched. The message to send again: ${body.selectedText}` : 'Branched.');
			return body.session;
		});
	}

	/** A new session holding the path from the root to `entryId`. */
	async branchedSession(entryId) {
		await this.newSession(() => call('POST', this.path('/branched-sessions'), { json: { leafId: entryId } }).then((answer) => answer.body));
	}

	/** A copy of the whole session. */
	async fork() {
		await this.newSession(() => call('POST', this.path('/fork')).then((answer) => answer.body));
	}

	async newSession(request, sessionOf = (body) => body) {
		try {
			const session = sessionOf(await request());
			if (session) {
				go(address(session.id));
			}
		} catch (failure) {
			notify(`No new session: ${failure.message}`, 'error');
		}
	}
}

// As a person types: a question is asked once they pause, and only the answer to the newest question is shown. An
// answer that comes after a newer question was asked is dropped, however late it comes, so a slow answer for "fla"
// never replaces the one for "flaky".

/** Waits this long after the last key press before asking. */
export const PAUSE_MS = 200;

export class Latest {
	/**
	 * @param ask `ask(question)` answers a promise; @param show `show(answer, question)` draws the newest answer;
	 * @param fail `fail(error, question)` when the newest question failed
	 */
	constructor(ask, show, fail) {
		this.ask = ask;
		this.show = show;
		this.fail = fail;
		this.asked = 0;
		this.timer = null;
	}

	/** Asks after the pause; a question asked meanwhile replaces this one. */
	soon(question) {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => this.now(question), PAUSE_MS);
	}

	/** Asks at once: the answers to every question asked before are dropped. */
	async now(question) {
		clearTimeout(this.timer);
		const asked = ++this.asked;
		try {
			const answer = await this.ask(question);
			if (asked === this.asked) {
				this.show(answer, question);
			}
		} catch (failure) {
			if (asked === this.asked) {
				this.fail(failure, question);
			}
		}
	}

	/**
	 * Reads on from the newest answer (its next page): resolves with what `ask()` answers, or with null when a newer
	 * question was asked meanwhile.
	 */
	async onward(ask) {
		const asked = this.asked;
		const answer = await ask();
		return asked === this.asked ? answer : null;
	}

	/** Drops whatever is on its way, as when the view closes. */
	cancel() {
		clearTimeout(this.timer);
		this.asked++;
	}
}

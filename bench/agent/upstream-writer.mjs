// Appends user messages to an existing session file through the upstream pi agent's own SessionManager
// (appendFileSync, no lock), as a running agent does. Prints each entry id once appendMessage returned.
// Usage: node upstream-writer.mjs <session file> <count> <max pause ms> <text prefix>
import { SessionManager } from "@mariozechner/pi-coding-agent";

const [file, count, maxPause, prefix] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const manager = SessionManager.open(file);
for (let i = 0; i < Number(count); i++) {
	const id = manager.appendMessage({ role: "user", content: `${prefix} ${i}`, timestamp: Date.now() });
	process.stdout.write(`${id}\n`);
	const pause = Math.floor(Math.random() * (Number(maxPause) + 1));
	if (pause > 0) {
		await sleep(pause);
	}
}

// What upstream pi's /resume shows for working directories: SessionManager.list(cwd) without a session folder, so that
// pi itself picks the folder of each cwd under its agent folder (PI_CODING_AGENT_DIR/sessions/--<cwd>--). Arguments:
// the folder where pi is installed (holding node_modules), then the working directories. Prints one JSON object:
// for each cwd, the {id, file} of every session pi lists, file relative to the sessions folder, "/" between names.
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";

const [installed, ...cwds] = process.argv.slice(2);
const pi = await import(pathToFileURL(join(installed, "node_modules/@mariozechner/pi-coding-agent/dist/index.js")).href);
const sessions = join(process.env.PI_CODING_AGENT_DIR, "sessions");
const resumable = {};
for (const cwd of cwds) {
	const listed = await pi.SessionManager.list(cwd);
	resumable[cwd] = listed.map((session) => ({ id: session.id, file: relative(sessions, session.path).split(sep).join("/") }));
}
console.log(JSON.stringify(resumable));

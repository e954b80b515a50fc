// What upstream pi's session listing shows of every session in one folder: SessionManager.list, the code behind
// pi's /resume picker. Arguments: the folder where pi is installed (holding node_modules), the session folder.
// Prints one JSON array of {id, name, firstMessage, messageCount}, name null where pi has none.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [installed, sessions] = process.argv.slice(2);
const pi = await import(pathToFileURL(join(installed, "node_modules/@mariozechner/pi-coding-agent/dist/index.js")).href);
const listed = await pi.SessionManager.list("/", sessions);
console.log(JSON.stringify(listed.map((session) => ({
	id: session.id,
	name: session.name ?? null,
	firstMessage: session.firstMessage,
	messageCount: session.messageCount,
}))));

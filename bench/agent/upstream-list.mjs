// Lists every session as pi's /resume does across all projects: SessionManager.listAll, which reads every file
// (PI_CODING_AGENT_DIR names the folder holding `sessions`). Prints how many and how long it took.
import { SessionManager } from "@mariozechner/pi-coding-agent";

const start = process.hrtime.bigint();
const sessions = await SessionManager.listAll();
const millis = Number(process.hrtime.bigint() - start) / 1e6;
console.log(`pi's SessionManager.listAll: ${sessions.length} sessions in ${millis.toFixed(0)} ms`);

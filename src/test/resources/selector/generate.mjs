// Writes upstream-rows.json: what upstream's tree selector (pi-coding-agent 0.73.1) shows for every scenario of
// scenarios.json, after every step, under every filter and search. SelectorFidelityTests compares Arbor's rows
// with it. Run from this folder (README.md says how):
//   PI=/path/to/node_modules/@mariozechner/pi-coding-agent FIXTURES=/path/to/shared/fixtures node generate.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

// pi shortens a tool call's path under the home folder of the machine it runs on to ~; Arbor does not run there
// (docs/SESSION-FORMAT.md#the-selector-rows), so no path of the scenarios may be under the home pi sees.
process.env.HOME = "/nonexistent-home";
delete process.env.USERPROFILE;
const pi = await import(pathToFileURL(path.join(process.env.PI, "dist/index.js")).href);
pi.initTheme("dark");
const here = path.dirname(new URL(import.meta.url).pathname);
const resources = path.resolve(here, "..");
const filters = ["default", "no-tools", "user-only", "labeled-only", "all"];
const ANSI = /\x1b\[[0-9;]*m/g;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "selector-"));

function sessionFile(name) {
  const [root, ...rest] = name.split("/");
  return root === "fixtures" ? path.join(process.env.FIXTURES, ...rest) : path.join(resources, name);
}

// pi reads neither oh-my-pi's title line nor blank lines: the header is the first line it sees.
function baseLines(file) {
  const lines = fs.readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "");
  const header = lines.findIndex((line) => JSON.parse(line).type === "session");
  return lines.slice(header);
}

function rowsOf(manager, leaf, filter, query, folded) {
  const list = new pi.TreeSelectorComponent(manager.getTree(), leaf, 100000, () => {}, () => {}, undefined,
    undefined, filter).getTreeList();
  if (query) {
    list.searchQuery = query;
    list.applyFilter();
  }
  // What Ctrl+← on each of these rows leaves: the rows below them taken out.
  if (folded.length > 0) {
    folded.forEach((id) => list.foldedNodes.add(id));
    list.applyFilter();
  }
  const nodes = list.filteredNodes;
  // The component's own drawing of every row, colours taken out: one line a row, then the count line; each line
  // starts with the two columns of the cursor.
  list.maxVisibleLines = Math.max(1, nodes.length);
  const drawn = nodes.length > 0 ? list.render(1_000_000).slice(0, nodes.length).map((line) => line.replace(ANSI, "").slice(2)) : [];
  const childCount = new Map();
  for (const node of nodes) {
    const parent = list.visibleParentMap?.get(node.node.entry.id) ?? null;
    childCount.set(parent, (childCount.get(parent) ?? 0) + 1);
  }
  const rows = nodes.map((node, index) => {
    const id = node.node.entry.id;
    const depth = list.multipleRoots ? Math.max(0, node.indent - 1) : node.indent;
    const connector = node.showConnector && !node.isVirtualRootChild ? (node.isLast ? "last" : "branch") : null;
    const guides = node.gutters.filter((gutter) => gutter.show).map((gutter) => gutter.position);
    return [id, depth, connector, guides, childCount.get(id) ?? 0, list.activePathIds.has(id), drawn[index]];
  });
  const selected = nodes.length > 0 ? nodes[list.selectedIndex].node.entry.id : null;
  return { selected, rows };
}

const scenarios = JSON.parse(fs.readFileSync(path.join(here, "scenarios.json"), "utf8"));
const out = [];
for (const scenario of scenarios) {
  const file = sessionFile(scenario.session);
  if (!fs.existsSync(file)) {
    console.error(`skipped ${scenario.name}: no ${file}`);
    continue;
  }
  const lines = baseLines(file);
  let leaf;
  const steps = [];
  for (const step of scenario.steps) {
    if (step.append) {
      lines.push(...step.append.map((entry) => JSON.stringify(entry)));
      leaf = undefined;
    }
    if ("leaf" in step) {
      leaf = step.leaf;
    }
    const copy = path.join(work, "session.jsonl");
    fs.writeFileSync(copy, lines.join("\n") + "\n");
    const manager = pi.SessionManager.open(copy, work);
    if (leaf === null) {
      manager.resetLeaf();
    } else if (leaf !== undefined) {
      manager.branch(leaf);
    }
    const views = [];
    for (const query of ["", ...scenario.queries]) {
      for (const filter of filters) {
        views.push({ filter, query, ...rowsOf(manager, manager.getLeafId(), filter, query, []) });
      }
    }
    for (const folded of scenario.folds ?? []) {
      for (const filter of filters) {
        views.push({ filter, query: "", folded, ...rowsOf(manager, manager.getLeafId(), filter, "", folded) });
      }
    }
    steps.push({ note: step.note, leaf: manager.getLeafId(), views });
  }
  out.push({ name: scenario.name, steps });
}
// One row a line, so that a change reads as a diff.
const text = JSON.stringify(out, null, 1).replace(/\[\n\s+("[^"]*"|null),\n\s+(\d+),\n\s+("[a-z]+"|null),\n\s+\[([\d,\s]*)\],\n\s+(\d+),\n\s+(true|false),\n\s+("(?:[^"\\]|\\.)*")\n\s+\]/g,
  (_, id, depth, connector, guides, count, active, line) => `[${id}, ${depth}, ${connector}, [${guides.replace(/\s+/g, "")}], ${count}, ${active}, ${line}]`);
fs.writeFileSync(path.join(here, "upstream-rows.json"), text + "\n");
fs.rmSync(work, { recursive: true });

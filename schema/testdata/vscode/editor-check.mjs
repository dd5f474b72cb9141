// Drives the JSON language service that VS Code itself uses with
// hooks.schema.json associated the way a user does it: through the
// json.schemas setting (fileMatch) and through a "$schema" key. Every check
// prints one line; the process fails when any check fails.
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";
import { getLanguageService } from "vscode-json-languageservice";
import { TextDocument } from "vscode-languageserver-textdocument";

const here = dirname(fileURLToPath(import.meta.url));
const schemaPath = process.argv[2] ?? join(here, "..", "..", "hooks.schema.json");
const schemaURI = pathToFileURL(schemaPath).href;
const schemaText = readFileSync(schemaPath, "utf8");

const service = getLanguageService({
  schemaRequestService: async (uri) => {
    if (uri === schemaURI) return schemaText;
    throw new Error(`no schema at ${uri}`);
  },
});
// The equivalent of VS Code's settings.json:
//   "json.schemas": [{"fileMatch": ["**/.agents/hooks.json", "**/.gemini/config/hooks.json"], "url": "..."}]
service.configure({
  validate: true,
  allowComments: false,
  schemas: [{ uri: schemaURI, fileMatch: ["**/.agents/hooks.json", "**/.gemini/config/hooks.json"] }],
});

let failures = 0;
function check(name, ok, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok ? "" : `: ${detail}`}`);
  if (!ok) failures++;
}

// doc returns a document whose text is `text` without the "|" marker, and
// the position of the marker.
function doc(text, uri = "file:///work/.agents/hooks.json") {
  const offset = text.indexOf("|");
  const clean = offset >= 0 ? text.slice(0, offset) + text.slice(offset + 1) : text;
  const document = TextDocument.create(uri, "json", 1, clean);
  return { document, position: offset >= 0 ? document.positionAt(offset) : null, json: service.parseJSONDocument(document) };
}

async function labels(text, uri) {
  const { document, position, json } = doc(text, uri);
  const list = await service.doComplete(document, position, json);
  return list.items.map((i) => i.label.replace(/^"|"$/g, ""));
}

function includesAll(have, want) {
  const missing = want.filter((w) => !have.includes(w));
  return [missing.length === 0, `missing ${JSON.stringify(missing)} in ${JSON.stringify(have)}`];
}

const events = ["PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop"];
const tools = [
  "view_file", "write_to_file", "replace_file_content", "multi_replace_file_content", "list_dir",
  "find_by_name", "grep_search", "search_web", "read_url_content", "run_command", "manage_task",
  "schedule", "list_permissions", "ask_permission", "invoke_subagent", "define_subagent",
  "send_message", "manage_subagents", "ask_question", "generate_image",
];

// Completion of keys and values.
check("events and enabled inside a hook definition",
  ...includesAll(await labels('{\n  "gate": {\n    |\n  }\n}'), [...events, "enabled"]));
check("handler fields inside a handler",
  ...includesAll(await labels('{"gate": {"Stop": [{|}]}}'), ["type", "command", "timeout"]));
check("handler fields inside a handler of a matcher group",
  ...includesAll(await labels('{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{|}]}]}}'), ["type", "command", "timeout"]));
check("group fields inside a tool event's entry",
  ...includesAll(await labels('{"gate": {"PreToolUse": [{|}]}}'), ["matcher", "hooks"]));
check("tool names inside a matcher",
  ...includesAll(await labels('{"gate": {"PreToolUse": [{"matcher": "|", "hooks": []}]}}'), tools));
check("command as the value of type",
  ...includesAll(await labels('{"gate": {"Stop": [{"type": |}]}}'), ["command"]));
check("true and false for enabled",
  ...includesAll(await labels('{"gate": {"enabled": |}}'), ["true", "false"]));

// Hover shows the descriptions.
async function hover(text) {
  const { document, position, json } = doc(text);
  const h = await service.doHover(document, position, json);
  if (!h) return "";
  const parts = Array.isArray(h.contents) ? h.contents : [h.contents];
  return parts.map((p) => (typeof p === "string" ? p : p.value)).join("\n");
}
for (const [name, text, words] of [
  ["timeout", '{"gate": {"Stop": [{"command": "x", "tim|eout": 5}]}}', "Timeout in seconds"],
  ["matcher", '{"gate": {"PreToolUse": [{"mat|cher": "x", "hooks": []}]}}', "whole tool name"],
  ["PreToolUse", '{"gate": {"PreTool|Use": []}}', "before a tool is executed"],
  ["enabled", '{"gate": {"enab|led": true}}', "disable the hook"],
  ["command", '{"gate": {"Stop": [{"comm|and": "x"}]}}', "shell command"],
]) {
  const text2 = await hover(text);
  check(`hover on ${name} shows its description`, text2.includes(words), `hover was ${JSON.stringify(text2)}`);
}

// Validation flags mistakes at the key or value at fault.
async function problems(text, uri) {
  const { document, json } = doc(text, uri);
  return service.doValidation(document, json);
}
{
  const diags = await problems('{\n  "gate": {\n    "PretoolUse": []\n  }\n}');
  const d = diags.find((x) => x.range.start.line === 2);
  check("a misspelt event is flagged at its key", d && d.range.start.character === 4, JSON.stringify(diags));
}
{
  const diags = await problems('{"gate": {"Stop": [{"matcher": "", "hooks": [{"command": "x"}]}]}}');
  check("Stop holding a matcher group is flagged", diags.length > 0, "no diagnostics");
}
{
  const diags = await problems('{"gate": {"PreToolUse": [{"command": "x"}]}}');
  check("PreToolUse holding a handler directly is flagged", diags.length > 0, "no diagnostics");
}
{
  const diags = await problems('{"gate": {"enabled": "false", "Stop": [{"command": "x", "timeout": "10"}]}}');
  check('"enabled": "false" and "timeout": "10" are both flagged', diags.length >= 2, JSON.stringify(diags));
}
{
  const diags = await problems('{"gate": {"PreToolUse": [{"matcher": "mcp__github__.*", "hooks": [{"command": "x"}]}]}}');
  check("a matcher outside the tool list stays valid", diags.length === 0, JSON.stringify(diags));
}
{
  const seed = readFileSync(join(here, "..", "seed-example.json"), "utf8");
  const diags = await problems(seed);
  check("the format document's example is valid", diags.length === 0, JSON.stringify(diags));
}
// Association through a "$schema" key in a file no fileMatch covers.
{
  const uri = "file:///elsewhere/hooks.json";
  const text = `{"$schema": "${schemaURI}", "gate": {"Stop": [{"command": "x", "timeout": 0}]}}`;
  const diags = await problems(text, uri);
  check('"$schema" association validates the file', diags.some((d) => /minimum|1/.test(d.message)), JSON.stringify(diags));
  const l = await labels(`{"$schema": "${schemaURI}", "gate": {|}}`, uri);
  check('"$schema" association completes events', ...includesAll(l, events));
}

if (failures > 0) {
  console.log(`${failures} editor check(s) failed`);
  process.exit(1);
}
console.log("all editor checks passed");

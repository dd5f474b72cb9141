#!/usr/bin/env node
// Denies writes whose content looks like an API key.
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const content = JSON.stringify(input.tool_input || {});
if (/AKIA[0-9A-Z]{16}|sk-[A-Za-z0-9]{20,}/.test(content)) {
  console.log(JSON.stringify({ decision: "deny", reason: "the content holds an API key" }));
} else {
  console.log(JSON.stringify({ decision: "allow" }));
}

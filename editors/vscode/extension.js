// @ts-check
// The VS Code extension of hookctl: it starts `hookctl lsp` and hands it the
// hooks.json and hooks.test.json files of the workspace. Everything the
// editor shows (lint's findings, quick fixes, completion, hover, go to
// definition) comes from the server; see docs/editors.md.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

/** @type {LanguageClient | undefined} */
let client;

/**
 * The program the user's settings name. hookctl.path is a machine setting
 * (package.json), which VS Code reads from user and remote settings only;
 * the workspace's values are passed over here too, for an editor that
 * would not apply the scope, so that a repository's .vscode/settings.json
 * never chooses the program the editor starts.
 * @returns {string}
 */
function program() {
  const setting = vscode.workspace.getConfiguration("hookctl").inspect("path");
  const chosen = setting?.globalValue ?? setting?.defaultValue;
  return typeof chosen === "string" && chosen !== "" ? chosen : "hookctl";
}

/** Starts `hookctl lsp` with the program the user's settings name. */
async function start() {
  const command = program();
  /** @type {import("vscode-languageclient/node").ServerOptions} */
  const server = { command, args: ["lsp"] };
  /** @type {import("vscode-languageclient/node").LanguageClientOptions} */
  const options = {
    documentSelector: [
      { scheme: "file", pattern: "**/hooks.json" },
      { scheme: "file", pattern: "**/hooks.test.json" },
    ],
  };
  client = new LanguageClient("hookctl", "hookctl", server, options);
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `hookctl: could not start "${command} lsp" (${err}). Install hookctl or set hookctl.path.`,
    );
  }
}

/**
 * @param {vscode.ExtensionContext} context
 */
async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("hookctl.path")) {
        // Another program: stop the server and start the new one.
        await client?.stop();
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };

// Package trust decides whether a workspace's hooks may run.
//
// A cloned repository's .agents/hooks.json runs commands on the user's
// machine the moment an agent calls a tool, so its hooks run only once the
// user has trusted the workspace. Trust is a SHA-256 fingerprint over the
// workspace's hooks.json, the code in the folder that holds it, the content
// of every file its commands name inside the workspace (the program a
// command runs, the script it hands to an interpreter) and what those
// scripts load (files sourced, modules imported, files required): editing
// any of them withdraws the trust as surely as editing the JSON, and so
// does creating a script that was missing when the workspace was trusted.
//
// The store (Store) keeps, for each workspace by its absolute real path,
// the fingerprint, each file's path and hash, the time it was trusted and a
// bounded copy of the files' text, so that Compare can show what changed
// since, as a unified diff, before the user trusts it again.
//
// Checker is the decision every hookctl run makes of a workspace file;
// Grant, Revoke and Now are hookctl trust's work on the store, and
// Renewal is init's renewal of the trust over the files it writes.
package trust

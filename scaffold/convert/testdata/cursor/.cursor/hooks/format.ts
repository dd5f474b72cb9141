// Formats the file the agent edited.
const input = await Bun.stdin.json();
await Bun.$`npx prettier --write ${input.file_path}`;

-- hookctl lsp in Neovim: lint's findings as you type, quick fixes,
-- completion, hover and go to definition in hooks.json and hooks.test.json.
-- Put this file in ~/.config/nvim/plugin/ (or require it from init.lua).
-- It needs Neovim 0.7 or later and hookctl on PATH.
local function start(args)
  local path = vim.api.nvim_buf_get_name(args.buf)
  local name = vim.fn.fnamemodify(path, ":t")
  if name ~= "hooks.json" and name ~= "hooks.test.json" then
    return
  end
  local config = {
    name = "hookctl",
    cmd = { "hookctl", "lsp" },
    -- Handlers run in the folder that holds hooks.json.
    root_dir = vim.fn.fnamemodify(path, ":p:h"),
  }
  if vim.lsp.start then
    -- Neovim 0.8 and later: starts the server, or reuses the one running.
    vim.lsp.start(config, { bufnr = args.buf })
    return
  end
  -- Neovim 0.7: one server for every hooks file.
  local client = _G.hookctl_lsp_client and vim.lsp.get_client_by_id(_G.hookctl_lsp_client)
  if not client or client.is_stopped() then
    _G.hookctl_lsp_client = vim.lsp.start_client(config)
  end
  if _G.hookctl_lsp_client then
    vim.lsp.buf_attach_client(args.buf, _G.hookctl_lsp_client)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "json",
  callback = start,
  desc = "start hookctl lsp for hooks.json and hooks.test.json",
})

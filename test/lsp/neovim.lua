-- Neovim (headless) as the editor of test/lsp/neovim.test.ts: opens LSP_VALUES with agentplat lsp
-- as its language server, then records what the server answers in LSP_OUT (JSON): the first
-- diagnostics, a hover, a completion, the did-you-mean code action applied by Neovim itself, and
-- the diagnostics after that edit. The waits are hang guards only (the test runner's timeout
-- bounds the run); nothing here measures time.
local GUARD = 600000
local out = {}
local path = vim.env.LSP_VALUES
vim.cmd('edit ' .. path)
local buf = vim.api.nvim_get_current_buf()
local published = {}
local id = vim.lsp.start_client({
  name = 'agentplat',
  cmd = { vim.env.LSP_NODE, vim.env.LSP_BIN, 'lsp', '--stdio' },
  root_dir = vim.fn.fnamemodify(path, ':h'),
  handlers = {
    ['textDocument/publishDiagnostics'] = function(_, result)
      table.insert(published, result)
    end,
  },
})
vim.lsp.buf_attach_client(buf, id)
vim.wait(GUARD, function() return #published > 0 end, 20)
out.first = published[#published].diagnostics
local client = vim.lsp.get_client_by_id(id)
local uri = vim.uri_from_bufnr(buf)
local at = function(line, character) return { textDocument = { uri = uri }, position = { line = line, character = character } } end
out.hover = client.request_sync('textDocument/hover', at(3, 6), GUARD, buf).result
out.completion = client.request_sync('textDocument/completion', at(1, 2), GUARD, buf).result

local typo
for _, d in ipairs(out.first) do
  if d.code == 'values/unknown-key' then typo = d end
end
local actions = client.request_sync('textDocument/codeAction', { textDocument = { uri = uri }, range = typo.range, context = { diagnostics = { typo } } }, GUARD, buf).result
for _, a in ipairs(actions) do
  if a.isPreferred then
    out.applied = a.title
    vim.lsp.util.apply_workspace_edit(a.edit, 'utf-16')
  end
end
local seen = #published
vim.wait(GUARD, function() return #published > seen end, 20)
out.after = published[#published].diagnostics
out.text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
local f = io.open(vim.env.LSP_OUT, 'w')
f:write(vim.fn.json_encode(out))
f:close()
-- The server exits (shutdown, exit) before Neovim does, so the test's folders are free to go.
client.stop()
vim.wait(GUARD, function() return client.is_stopped() end, 20)
vim.cmd('qa!')

-- Driven by tests/nvim/check.sh: Neovim's own LSP client on `carto lsp`, on mistake.rules (a
-- misspelt parameter). Writes what it saw to $REPORT; exits 1 (cquit) at the first thing wrong.
local report = io.open(os.getenv("REPORT"), "w")
local function say(s) report:write(s .. "\n"); report:flush() end
local function fail(s) say("FAIL: " .. s); report:close(); vim.cmd("cquit 1") end

local buf = vim.api.nvim_get_current_buf()
local file = vim.api.nvim_buf_get_name(buf)
local client = vim.lsp.start_client({
  name = "carto",
  cmd = { os.getenv("CARTO"), "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
if not client then fail("the server did not start") end
vim.lsp.buf_attach_client(buf, client)

-- The diagnostic of the misspelt `monastery_tile`, with its did-you-mean.
local got = vim.wait(10000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
if not got then fail("no diagnostic") end
local d = vim.diagnostic.get(buf)[1]
say(string.format("diagnostic %s at %d:%d: %s", d.code or "?", d.lnum + 1, d.col + 1, d.message:gsub("\n", " / ")))
if d.lnum ~= 5 or not d.message:find("monastery_tile", 1, true) then fail("not the expected diagnostic") end

local function request(method, line, col, extra)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
  for k, v in pairs(extra or {}) do params[k] = v end
  local res = vim.lsp.buf_request_sync(buf, method, params, 10000)
  if not res or not res[client] or res[client].err then fail(method .. " failed") end
  return res[client].result
end

-- Hover on `bonus` in the body: the parameter's declaration.
local hover = request("textDocument/hover", 5, 26)
local text = hover and hover.contents and hover.contents.value or ""
say("hover bonus: " .. text:gsub("\n", " / "))
if not text:find("param bonus: int = 2", 1, true) then fail("hover without the declaration") end

-- Completion at the start of `monastry_tile`: the imported parameter is offered.
local items = request("textDocument/completion", 5, 33)
local found = false
for _, it in ipairs(items or {}) do if it.label == "monastery_tile" then found = true end end
say("completion offers monastery_tile: " .. tostring(found) .. " (" .. #(items or {}) .. " items)")
if not found then fail("monastery_tile not offered") end

-- Rename the parameter `bonus` to `extra`, as `:lua vim.lsp.buf.rename("extra")` does.
vim.api.nvim_win_set_cursor(0, { 3, 7 })
vim.lsp.buf.rename("extra")
local renamed = vim.wait(10000, function()
  local lines = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
  return lines:find("param extra", 1, true) and lines:find("extra * monastry_tile", 1, true)
end, 50)
say("after rename: " .. vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1] .. " / " .. vim.api.nvim_buf_get_lines(buf, 5, 6, false)[1])
if not renamed then fail("the rename was not applied") end
say("ok")
report:close()
vim.lsp.stop_client(client)
vim.cmd("qa!")

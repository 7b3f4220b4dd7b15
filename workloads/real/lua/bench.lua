-- rvsim's real suite (suite/real.toml): Lua kernels written for the
-- project: tables as objects (a bank of accounts with methods and
-- metatables), closures and higher-order functions, recursion (binary
-- trees, N-queens), string building with string.format, and pattern
-- matching (gsub, gmatch). Usage: lua5.4 bench.lua N (N scales the work
-- linearly). Every kernel prints a checksum, checked against
-- qemu-riscv64's output (workloads/real/expected).

local N = tonumber(arg[1])
if not N then error("usage: lua5.4 bench.lua N") end

-- a 31-bit linear congruential generator (deterministic)
local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

-- objects: accounts with methods through a metatable
local Account = {}
Account.__index = Account
function Account.new(id) return setmetatable({id = id, balance = 0, history = {}}, Account) end
function Account:deposit(v) self.balance = self.balance + v; self.history[#self.history + 1] = v end
function Account:withdraw(v)
  if v > self.balance then return false end
  self.balance = self.balance - v
  self.history[#self.history + 1] = -v
  return true
end
local Savings = setmetatable({}, {__index = Account})
Savings.__index = Savings
function Savings.new(id, rate)
  local a = Account.new(id); a.rate = rate
  return setmetatable(a, Savings)
end
function Savings:interest() self:deposit(self.balance * self.rate // 100) end

local function objects(n)
  local accts = {}
  for i = 1, 64 do accts[i] = (i % 3 == 0) and Savings.new(i, 1 + i % 4) or Account.new(i) end
  local failed = 0
  for r = 1, n * 300 do
    local a, b = accts[rand(64) + 1], accts[rand(64) + 1]
    a:deposit(rand(500))
    if not a:withdraw(rand(700)) then failed = failed + 1 end
    if b.interest and r % 50 == 0 then b:interest() end
  end
  local sum = 0
  for _, a in ipairs(accts) do sum = sum + a.balance + #a.history end
  return sum + failed
end

-- closures and higher-order functions
local function map(t, f) local o = {} for i = 1, #t do o[i] = f(t[i]) end return o end
local function filter(t, f) local o = {} for i = 1, #t do if f(t[i]) then o[#o + 1] = t[i] end end return o end
local function reduce(t, f, acc) for i = 1, #t do acc = f(acc, t[i]) end return acc end

local function closures(n)
  local total = 0
  for r = 1, n * 4 do
    local t = {}
    for i = 1, 200 do t[i] = rand(1000) end
    local k = r % 7 + 2
    local scaled = map(t, function(x) return x * k end)
    local odd = filter(scaled, function(x) return x % 3 == 1 end)
    total = total + reduce(odd, function(a, x) return a + x % 101 end, 0)
    table.sort(t, function(a, b) return a > b end)
    total = total + t[1] - t[#t]
  end
  return total
end

-- recursion: binary trees and N-queens
local function tree(d) if d == 0 then return {} end return {tree(d - 1), tree(d - 1)} end
local function count(t) if t[1] == nil then return 1 end return 1 + count(t[1]) + count(t[2]) end

local function queens(n)
  local cols, d1, d2, found = {}, {}, {}, 0
  local function place(r)
    if r > n then found = found + 1; return end
    for c = 1, n do
      if not cols[c] and not d1[r + c] and not d2[r - c + n] then
        cols[c], d1[r + c], d2[r - c + n] = true, true, true
        place(r + 1)
        cols[c], d1[r + c], d2[r - c + n] = nil, nil, nil
      end
    end
  end
  place(1)
  return found
end

local function recursion(n)
  local total = 0
  for r = 1, n do total = total + count(tree(8 + r % 3)) + queens(5 + r % 2) end
  return total
end

-- strings: a formatted report, concatenated with table.concat
local function strings(n)
  local total = 0
  for r = 1, n * 2 do
    local parts = {}
    for i = 1, 100 do
      local a, b = rand(100000), rand(1000)
      parts[#parts + 1] = string.format("%-10s|%8d|%9.3f|%x", "item" .. (a % 997), a, b / 7, a ~ b)
    end
    local s = table.concat(parts, "\n")
    total = total + #s + #s:upper() + select(2, s:gsub("|", "|"))
  end
  return total
end

-- patterns: parse key=value records and words
local function patterns(n)
  local keys = {"user", "host", "path", "code", "size"}
  local total = 0
  for r = 1, n * 2 do
    local recs = {}
    for i = 1, 60 do
      recs[i] = string.format("%s=%d %s=w%d %s=/a/b%d", keys[rand(5) + 1], rand(999), keys[rand(5) + 1], rand(50),
        keys[rand(5) + 1], rand(9))
    end
    local text = table.concat(recs, ";")
    local counts = {}
    for k, v in text:gmatch("(%a+)=(%S+)") do
      counts[k] = (counts[k] or 0) + 1
      total = total + #v
    end
    for _, k in ipairs(keys) do total = total + (counts[k] or 0) * #k end
    total = total + #(text:gsub("(%d+)", function(d) return tostring(tonumber(d) * 2) end))
  end
  return total
end

for _, k in ipairs({{"objects", objects}, {"closures", closures}, {"recursion", recursion},
    {"strings", strings}, {"patterns", patterns}}) do
  print(string.format("%-10s %d", k[1], k[2](N)))
end

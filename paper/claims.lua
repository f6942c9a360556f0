-- paper/claims.lua: every claim paper.tex makes about paper/data, as a check,
-- and every number it prints, as a macro (cryptobench claims; make paper).
--
-- data "NAME" is the folder paper/data/NAME as the analysis sees it: runs[k]
-- is run k's report (report --format json, with its results header as
-- header) and compare the runs' comparison (compare --format json). A check
-- returns whether the claim holds and its evidence. A claim that the data no
-- longer support fails `make paper`, naming it.

---------------------------------------------------------------------------
-- Helpers over the report and compare JSON
---------------------------------------------------------------------------

local function matches(object, selector)
  for k, v in pairs(selector) do
    if object == nil or object[k] ~= v then return false end
  end
  return true
end

local function find(list, selector, field)
  for _, x in ipairs(list or {}) do
    if matches(field and x[field] or x, selector) then return x end
  end
end

local function all(list, selector, field)
  local out = {}
  for _, x in ipairs(list or {}) do
    if matches(field and x[field] or x, selector) then out[#out + 1] = x end
  end
  return out
end

-- A derived metric of run K: name and the values of its `by`.
local function derived(d, k, name, by)
  for _, m in ipairs(d.runs[k].derived) do
    if m.name == name and matches(m.by, by or {}) then return m end
  end
end

-- The compare row of a derived metric, and of a cell.
local function across(d, name, by)
  for _, r in ipairs(d.compare.derived) do
    if r.metric == name and matches(r.by, by or {}) then return r end
  end
end
local function cell_row(d, selector) return find(d.compare.cells, selector, "cell") end

-- A cell's report in run K.
local function cell(d, k, selector) return find(d.runs[k].cells, selector, "cell") end

local function f3(x) return x and string.format("%.3f", x) or "none" end
local function f2(x) return x and string.format("%.2f", x) or "none" end
local function pct(x) return x and string.format("%.1f%%", 100 * x) or "none" end

-- "0.712 [0.709, 0.716]" for a derived metric's ratio.
local function ratio_text(m)
  if not (m and m.ratio) then return "no ratio" end
  return string.format("%.3f [%.3f, %.3f]", m.ratio.value, m.ratio.interval.lo,
                       m.ratio.interval.hi)
end

-- Whether TEST(k) holds in every run of D, with each run's evidence.
local function every_run(d, test)
  local ok, seen = true, {}
  for k = 1, #d.runs do
    local held, evidence = test(k)
    ok = ok and held
    seen[#seen + 1] = string.format("run %d: %s", k, evidence)
  end
  return ok, table.concat(seen, "; ")
end

-- The geometric mean over runs of F(k) (a positive number per run).
local function across_runs(d, f)
  local sum, n = 0, 0
  for k = 1, #d.runs do
    local v = f(k)
    if not v or v <= 0 then return nil end
    sum, n = sum + math.log(v), n + 1
  end
  return n > 0 and math.exp(sum / n) or nil
end

-- Counts of compare rows per verdict: derived ("derived") or cells ("cells").
local function verdicts(d, rows)
  local count = { reproduced = 0, ["non-reproducible"] = 0, contradictory = 0,
                  ["not resolved"] = 0, total = 0 }
  for _, r in ipairs(d.compare[rows]) do
    count[r.verdict] = count[r.verdict] + 1
    count.total = count.total + 1
  end
  return count
end

local function verdict_text(c)
  return string.format("%d reproduced, %d non-reproducible, %d contradictory, %d not resolved of %d",
                       c.reproduced, c["non-reproducible"], c.contradictory, c["not resolved"],
                       c.total)
end

-- A cell's median MB/s in run K, and its interval.
local function mbs(d, k, selector)
  local c = cell(d, k, selector)
  if not (c and c.mb_per_s) then return nil end
  return c.mb_per_s.median, c.mb_per_s.median_ci.lo, c.mb_per_s.median_ci.hi
end

-- The ratio of two cells' median MB/s in run K.
local function cell_ratio(d, k, a, b)
  local x, y = mbs(d, k, a), mbs(d, k, b)
  return x and y and x / y or nil
end

-- Whether cell A's median interval lies wholly below cell B's in run K.
local function below(d, k, a, b)
  local _, _, ahi = mbs(d, k, a)
  local _, blo = mbs(d, k, b)
  return ahi ~= nil and blo ~= nil and ahi < blo
end

local function label_macro(label)
  -- "python-hashlib" -> "PythonHashlib": TeX macro names are letters only.
  return (label:gsub("%d", { ["0"] = "Zero", ["1"] = "One", ["2"] = "Two", ["4"] = "Four",
                              ["6"] = "Six" })
               :gsub("(%a)(%a*)", function(a, b) return a:upper() .. b end)
               :gsub("[^%a]", ""))
end

---------------------------------------------------------------------------
-- The data and the machine
---------------------------------------------------------------------------

local folders = { "sweep", "key-scaling", "sha-ext", "capability-mask", "threads",
                  "context-reuse", "chunked", "cross-runtime", "file-tools",
                  "validation-aa", "validation-shift" }
local D = {}
for _, name in ipairs(folders) do D[name] = data(name) end

local host = D["key-scaling"].runs[1].header.host
number { name = "HostCpu", value = host.cpu }
number { name = "HostCores", value = host.logical_cores, format = "%d" }
number { name = "HostKernel", value = host.kernel.release }
number { name = "HostVirt", value = host.virtualization }
number { name = "HostCounter", value = D["key-scaling"].runs[1].header.counter.cycles }
number { name = "DataDate", value = D["sweep"].runs[1].header.started:sub(1, 10) }

local engine_versions = {}
for _, name in ipairs { "key-scaling", "cross-runtime", "sha-ext" } do
  for _, e in ipairs(D[name].runs[1].header.engines) do
    engine_versions[e.label or e.name] = e.version
  end
end
for _, label in ipairs { "openssl", "gcrypt", "nettle", "sodium", "mbedtls", "wolfssl", "gnutls",
                         "python-hashlib", "python-cryptography", "python-pycryptodome",
                         "node-crypto", "dotnet" } do
  number { name = "Version" .. label_macro(label), value = engine_versions[label] or "?" }
end

local trials, invalid, runs = 0, 0, 0
for _, name in ipairs(folders) do
  for _, r in ipairs(D[name].runs) do
    runs = runs + 1
    for _, c in ipairs(r.cells) do trials, invalid = trials + c.n + c.invalid, invalid + c.invalid end
  end
end
number { name = "DataTrials", value = string.format("%d", trials):reverse():gsub("(%d%d%d)", "%1,")
                                       :reverse():gsub("^,", "") }
number { name = "DataInvalid", value = invalid, format = "%d" }
number { name = "DataRuns", value = runs, format = "%d" }
number { name = "DataFolders", value = #folders, format = "%d" }

claim {
  name = "all-outputs-verified",
  text = "every measured trial of every folder produced the reference output",
  check = function()
    return invalid == 0, string.format("%d invalid of %d measured trials in %d runs", invalid,
                                       trials, runs)
  end,
}

claim {
  name = "input-proven",
  text = "within each folder every run hashed the same input (one digest in every header)",
  check = function()
    local seen = {}
    for _, name in ipairs(folders) do
      local digest = D[name].runs[1].header.input and D[name].runs[1].header.input.unit_sha256
      for k, r in ipairs(D[name].runs) do
        local other = r.header.input and r.header.input.unit_sha256
        if other ~= digest then
          return false, string.format("%s run %d: %s against %s", name, k, tostring(other),
                                      tostring(digest))
        end
      end
      seen[#seen + 1] = name .. " " .. (digest and digest:sub(1, 12) or "(no input: sim)")
    end
    return true, table.concat(seen, ", ")
  end,
}

claim {
  name = "kcapi-absent",
  text = "the kernel's AF_ALG interface (kcapi) is in no run: this kernel lacks it",
  check = function()
    for _, name in ipairs(folders) do
      for k, r in ipairs(D[name].runs) do
        if find(r.header.engines, { name = "kcapi" }) then
          return false, string.format("%s run %d has kcapi", name, k)
        end
      end
    end
    return true, "no kcapi engine in any header (kernel " .. host.kernel.release .. ")"
  end,
}

# Issue 38's blind measurement on a real unittest project, sqlglot (github tobymao/sqlglot at 37362f4fc1d6, ~80,000
# lines, every dialect test a loop of subtests): seeded mutants of sqlglot/generators/*.py (an upper-case SQL word
# gets "_X"; a mutant no test kills is drawn past), each state's failing set read by Greenloop's `verify` from the real
# output of `python -m unittest` and of pytest 9 on the dialect tests, against the ground truth recorded from unittest's
# own result objects (groundTruth/sitecustomize.py). The outputs are replayed to `verify` (`cat OUT; exit CODE`), so
# another build of Greenloop (BASE_CLI, e.g. main's) reads the very same bytes.
# Usage: SQLGLOT=/path/to/checkout [BASE_CLI=/other/dist/cli.js] [KEEP=10] python3 bench/pythonRunners/measure.py
# Needs python3 with pytest 9; no package of sqlglot's own beyond the standard library (test_bigquery needs pytz and
# is a load error in every state, left out of pytest's run).
import json, os, random, re, subprocess, sys, glob, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SQ = os.environ["SQLGLOT"]
OUT = os.environ.get("OUT", "/tmp/greenloop-python-runners")
SEED = 38
KEEP = int(os.environ.get("KEEP", "10"))
BRANCH = os.path.join(HERE, "..", "..", "dist", "cli.js")
MAIN = os.environ.get("BASE_CLI")
UT = "python3 -m unittest discover -s tests/dialects -t ."
PT = "python3 -m pytest -q -p no:cacheprovider --ignore=tests/dialects/test_bigquery.py tests/dialects"
os.makedirs(OUT, exist_ok=True)

LIT = re.compile(r'"([A-Z][A-Z_]{2,})"')
cands = []
for f in sorted(glob.glob(f"{SQ}/sqlglot/generators/*.py")):
    for n, line in enumerate(open(f).read().split("\n")):
        if LIT.search(line) and not line.lstrip().startswith("#"):
            cands.append((os.path.relpath(f, SQ), n))
rng = random.Random(SEED)
rng.shuffle(cands)
print(f"{len(cands)} candidate lines, seed {SEED}", flush=True)

def sh(cmd, env=None):
    p = subprocess.run(cmd, shell=True, cwd=SQ, capture_output=True, text=True, env={**os.environ, **(env or {})})
    return p.returncode, p.stdout + p.stderr

def verify(cli, out_file, code):
    rc, o = sh(f"node {cli} verify --cwd {SQ} --tsc off --test-cmd 'cat {out_file}; exit {code}' 2>/dev/null")
    try:
        return json.loads(o[o.index("{"):])
    except Exception:
        return {"failing": None, "raw": o[-300:]}

rows = []
for (rel, n) in cands:
    if len(rows) >= KEEP:
        break
    path = f"{SQ}/{rel}"
    src = open(path).read()
    lines = src.split("\n")
    m = LIT.search(lines[n])
    lines[n] = lines[n][:m.start()] + f'"{m.group(1)}_X"' + lines[n][m.end():]
    open(path, "w").write("\n".join(lines))
    try:
        k = len(rows) + 1
        gt_file = f"{OUT}/state{k}.gt.json"
        ut_rc, _ = sh(UT, {"PYTHONPATH": os.path.join(HERE, "groundTruth"), "GT_OUT": gt_file, "SKIP_INTEGRATION": "1"})
        gt = json.load(open(gt_file))
        if not gt["failing"]:
            print(f"  {rel}:{n+1} {m.group(1)}: no test fails (survivor), drawn past", flush=True)
            continue
        shutil.move(gt_file + ".stderr.txt", f"{OUT}/state{k}.unittest.txt")
        pt_rc, pt_out = sh(PT)
        open(f"{OUT}/state{k}.pytest.txt", "w").write(pt_out)
        row = {"state": k, "mutant": f"{rel}:{n+1} \"{m.group(1)}\" -> \"{m.group(1)}_X\"", "truth": gt["failing"]}
        for who, cli in (("branch", BRANCH), ("main", MAIN)) if MAIN else (("branch", BRANCH),):
            for runner, f, rc in (("unittest", f"{OUT}/state{k}.unittest.txt", ut_rc), ("pytest", f"{OUT}/state{k}.pytest.txt", pt_rc)):
                w = verify(cli, f, rc)
                row[f"{who}.{runner}"] = w.get("failing")
        rows.append(row)
        summary = {key: (row[key] == row["truth"]) for key in row if "." in key}
        print(f"state {k}: {row['mutant']}: truth {len(gt['failing'])} failing; exact: {summary}", flush=True)
    finally:
        open(path, "w").write(src)
json.dump(rows, open(f"{OUT}/rows.json", "w"), indent=1)
for key in ("branch.unittest", "branch.pytest", "main.unittest", "main.pytest"):
    if key not in rows[0]:
        continue
    exact = sum(1 for r in rows if r[key] == r["truth"])
    print(f"{key}: {exact} of {len(rows)} states exactly the ground truth's failing set")

"""The package's speed and memory against the CLI (issue's targets):

- validate_arrow on the WTHOR database as gamerec texts (one text per game),
  one thread, against `gamerec validate -q` of the same text on one thread;
- validate_arrow with two threads against one;
- the peak RSS of streaming the database through read_arrow into Parquet.

    python python/bench/bench_arrow.py [WTHOR_DIR] [--bin target/release/gamerec]

Run on a quiet machine; prints one line per measure. The CLI's rate is
its CPU time; validate_arrow's one-thread rate is given both by CPU time
(comparable with the CLI's on a loaded machine) and by wall time, the
two-thread speed-up by wall time (the only meaningful one), with the load
average before and after. The peak RSS of the Parquet run is given beside
that of an interpreter that only imports pyarrow.parquet and gamerec.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cpu_seconds(cmd: list[str]) -> float:
    out = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S", *cmd], capture_output=True, text=True, check=False
    )
    user, sys_ = out.stderr.strip().splitlines()[-1].split()
    return float(user) + float(sys_)


def in_child(code: str, threads: int) -> list[float]:
    """Runs `code` in a fresh interpreter with `threads` replay threads:
    the numbers it prints."""
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return [float(x) for x in out.stdout.split()]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("wthor", nargs="?", default=str(ROOT.parent / "shared" / "data" / "wthor"))
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "gamerec"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"load average {load()}")
    tmp = pathlib.Path(tempfile.mkdtemp())
    text = tmp / "wthor.gamerec"
    with open(text, "wb") as f:
        subprocess.run([args.bin, "convert", "-q", "--to", "gamerec", args.wthor], stdout=f, check=False)
    games = text.read_text().count("[Game ")
    cli = min(
        cpu_seconds(["env", "RAYON_NUM_THREADS=1", args.bin, "validate", "-qq", str(text)])
        for _ in range(args.runs)
    )
    code = f"""
import time, resource, pyarrow as pa, gamerec
text = open({str(text)!r}).read()
games = ["[Game " + g for g in text.split("[Game ")[1:]]
arr = pa.array(games, type=pa.large_string())
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t, c = time.perf_counter(), cpu()
batch = gamerec.validate_arrow(arr)
print(time.perf_counter() - t, cpu() - c)
"""
    ones = [in_child(code, 1) for _ in range(args.runs)]
    one, one_cpu = min(w for w, _ in ones), min(c for _, c in ones)
    two = min(in_child(code, 2)[0] for _ in range(args.runs))
    print(f"{games} games; CLI one thread {games / cli:,.0f} games/s (cpu)")
    print(
        f"validate_arrow one thread {games / one_cpu:,.0f} games/s (cpu): {cli / one_cpu:.2f} "
        f"of the CLI; by wall time {games / one:,.0f} games/s: {cli / one:.2f}"
    )
    print(f"validate_arrow two threads {games / two:,.0f} games/s: {one / two:.2f}x one thread")
    # the peak RSS of the child's own memory (VmHWM): ru_maxrss would carry
    # over the RSS this process had when it started the child
    peak = "int([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])"
    parquet = f"""
import time, pyarrow.parquet as pq, gamerec
t = time.perf_counter()
batches = gamerec.read_arrow({str(text)!r})
first = next(batches)
with pq.ParquetWriter({str(tmp / "games.parquet")!r}, first.schema) as w:
    w.write_batch(first)
    for b in batches:
        w.write_batch(b)
print(time.perf_counter() - t, {peak})
"""
    seconds, rss = in_child(parquet, 2)
    bare = f"import pyarrow.parquet, gamerec\nprint({peak})"
    (base,) = in_child(bare, 2)
    print(
        f"read_arrow -> Parquet: {seconds:.1f} s, peak RSS {rss / 1024:.0f} MB "
        f"(importing pyarrow.parquet and gamerec alone: {base / 1024:.0f} MB)"
    )
    print(f"load average {load()}")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# `perft reversi DEPTH`: gamerec and Edax 4.6 side by side, one thread, user
# CPU time, the median of RUNS interleaved runs each, and the ratio. Edax is
# built here from its public source (never committed): cloned into
# target/edax at EDAX_COMMIT and compiled for x86-64-v3 (AVX2, BMI2,
# POPCNT) with its own makefile, `make build ARCH=x86-64-v3`. Edax's
# interactive `perft N` (its move generator without a hash table) is the
# command timed. Both counts are printed: from depth 12 on Edax's is a
# little lower than the published one (OEIS A124004: 1,939,886,636 at
# depth 12, gamerec's), as it counts the positions where the game has
# ended otherwise. Edax reads its evaluation weights at start and perft uses
# none, so a file of zero weights in Edax's format stands in for them.
#
#   benches/edax.sh                                  # clone from GitHub
#   EDAX_SRC=/path/to/edax-reversi benches/edax.sh   # a local clone or mirror
#
# Environment: BIN (default target/release/gamerec), EDAX_SRC (default
# https://github.com/abulmo/edax-reversi), EDAX_COMMIT (default 14f048c,
# Edax 4.6), PERFT_DEPTH (default 12), RUNS (default 5), CC (default gcc;
# Edax's makefile knows gcc, clang and icc).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-target/release/gamerec}
EDAX_SRC=${EDAX_SRC:-https://github.com/abulmo/edax-reversi}
EDAX_COMMIT=${EDAX_COMMIT:-14f048c}
DEPTH=${PERFT_DEPTH:-12}
RUNS=${RUNS:-5}
DIR=target/edax
EDAX=$DIR/bin/lEdax-x86-64-v3

[ -x "$BIN" ] || cargo build --release --quiet --bin gamerec
if [ ! -x "$EDAX" ]; then
    rm -rf "$DIR"
    git clone --quiet "$EDAX_SRC" "$DIR"
    git -C "$DIR" checkout --quiet "$EDAX_COMMIT"
    mkdir -p "$DIR/bin"
    make -C "$DIR/src" --quiet build ARCH=x86-64-v3 CC="${CC:-gcc}" OS=linux >/dev/null
fi
if [ ! -f "$DIR/data/eval.dat" ]; then
    mkdir -p "$DIR/data"
    # header: "EDAX", "EVAL", version, release, build, date; then 61 plies
    # of 114,364 weights (int16), all zero
    python3 - "$DIR/data/eval.dat" <<'PY'
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IIIIId", 0x45444158, 0x4556414C, 4, 6, 0, 0.0))
    f.write(bytes(2 * 114364 * 61))
PY
fi

# Edax reads its commands from a terminal: a pseudo-terminal drives it.
# Its `perft N` counts depth 1 to N, each line with its own time; the
# depth-N line's time is compared with gamerec's wall time for depth N
# (both one thread, run in turn, RUNS times; the medians).
python3 - "$BIN" "$EDAX" "$DEPTH" "$RUNS" <<'PY'
import os, pty, re, select, statistics, subprocess, sys, time

gamerec, edax, depth, runs = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
workdir = os.path.dirname(os.path.dirname(edax))

def edax_perft():
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(workdir)
        os.execv(edax, [edax, "-n", "1"])
    out = b""
    def read_until(pattern, timeout):
        nonlocal out
        end = time.time() + timeout
        while not re.search(pattern, out) and time.time() < end:
            r, _, _ = select.select([fd], [], [], 1)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
    read_until(rb">", 60)
    os.write(fd, b"perft %d\n" % depth)
    read_until(rb"Total", 3600)
    os.write(fd, b"quit\n")
    os.waitpid(pid, 0)
    line = re.search(rb"^\s*%d,.*?(\d+):(\d+)\.(\d+)," % depth, out, re.M)
    if not line:
        sys.exit("Edax printed no depth-%d line:\n%s" % (depth, out.decode(errors="replace")))
    m, s, ms = (int(x) for x in line.groups())
    leaves = int(re.search(rb"^\s*%d,\s*(\d+)," % depth, out, re.M).group(1))
    return m * 60 + s + ms / 1000, leaves

def gamerec_perft():
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    t = time.perf_counter()
    r = subprocess.run([gamerec, "perft", "reversi", str(depth), "--threads", "1"],
                       capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - t, int(re.search(r"\d+", r.stdout.replace(",", "")).group(0))

ours, theirs = [], []
for _ in range(runs):
    t, n = gamerec_perft(); ours.append(t)
    u, m = edax_perft(); theirs.append(u)
a, b = statistics.median(ours), statistics.median(theirs)
print("perft reversi %d, one thread, median of %d: gamerec %.2f s (%d leaves), Edax 4.6 (x86-64-v3) %.2f s (%d): gamerec takes %.2fx Edax's time"
      % (depth, runs, a, n, b, m, a / b))
PY

#!/usr/bin/env bash
# Peak memory and time of the readers on hostile input (issue "Hostile
# input, second pass"): each reproducer at 1 MB and 100 MB (and a 198 MB
# YAML file), through `validate -q`, `score` and `convert --to json`. Not part
# of `cargo test`: it writes about 700 MB under a temporary folder.
#
#   benches/hostile.sh            (BIN=path/to/gamerec to measure another build)
#   CMDS="validate" benches/hostile.sh    (only the commands named: validate, score, convert)
#   ONLY="ggf-props yaml" benches/hostile.sh    (only those inputs)
#
# Prints one line per run: peak resident memory (/usr/bin/time), seconds,
# and whether it is within the 64 MB bound. Time is checked by doubling:
# each input also runs at half its largest size, and the largest may take at
# most 2.2 times as long. Exits 1 when a bound is broken.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet
  BIN=$PWD/target/release/gamerec
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
limit_kb=$((64 * 1024))
CMDS=${CMDS:-"validate score convert"}
ONLY=${ONLY:-}
has() { case " $1 " in *" $2 "*) return 0 ;; *) return 1 ;; esac; }
failed=0

measure() { # label, command...
  local label=$1
  shift
  /usr/bin/time -f 'TIME %M %e' "$@" >/dev/null 2>"$work/err" || true
  local out kb secs verdict=ok
  out=$(grep '^TIME' "$work/err" | tail -1)
  kb=$(echo "$out" | awk '{print $2}')
  secs=$(echo "$out" | awk '{print $3}')
  if [ "${kb:-0}" -gt "$limit_kb" ]; then
    verdict="OVER 64 MB"
    failed=1
  fi
  printf '%-58s %8s KB %8s s  %s\n' "$label" "$kb" "$secs" "$verdict"
  echo "$secs" >"$work/last_secs"
}

# kind, bytes, file: writes the reproducer of that kind, about that size
make() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
kind, size, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
unit = {
    # find 1: unclosed games on one line
    "ggf-unclosed": "(;GM[Othello]",
    # find 2: text before each game
    "ggf-junk": "x(;GM[Othello];)\n",
    # find 4: junk in a .json file
    "json-junk": "x" * 1024,
}.get(kind)
with open(path, "w") as f:
    if unit is not None:
        n = size // len(unit)
        for _ in range(n // 1024):
            f.write(unit * 1024)
        f.write(unit * (n % 1024))
    elif kind == "ggf-nested":
        # find 1: `(;` x N then `;)` x N
        n = size // 4
        f.write("(;" * n)
        f.write(";)" * n)
    elif kind == "ggf-props":
        # find 3: games of 1,000,000 properties (8 MB each)
        game = "(;GM[Othello]" + "C[x]" * 1_000_000 + ";)\n"
        for _ in range(max(1, size // len(game))):
            f.write(game)
    elif kind == "yaml":
        # find 4: a YAML document of many games, as convert --to yaml writes it
        game = "- game: reversi\n  variant: standard\n  tags:\n  - - Game\n    - reversi\n  comment: null\n  moves:\n" + "".join(
            "  - ply: %d\n    player: %s\n    notation: %s\n    comment: null\n" % (i + 1, p, m)
            for i, (p, m) in enumerate([("black", "f5"), ("white", "d6"), ("black", "c3"), ("white", "d3")])
        )
        f.write("games:\n")
        for _ in range(size // len(game)):
            f.write(game)
    elif kind == "pentobi-wide":
        # find 13: a tree N variations wide
        n = size // 9
        f.write("(;GM[Blokus Duo]" + "(;B[e10])" * n + ")\n")
PY
}

run() { # kind, extension, sizes...
  local kind=$1 ext=$2
  shift 2
  if [ -n "$ONLY" ] && ! has "$ONLY" "$kind"; then return; fi
  local size prev="" prev_size=0
  for size in "$@"; do
    local f="$work/$kind-$size.$ext"
    make "$kind" "$size" "$f"
    local mb=$((size / 1000000))
    local t=""
    if has "$CMDS" validate; then
      measure "$kind ${mb} MB: validate -q" "$BIN" validate -q "$f"
      t=$(cat "$work/last_secs")
    fi
    if has "$CMDS" score; then
      measure "$kind ${mb} MB: score" "$BIN" score "$f"
    fi
    if has "$CMDS" convert; then
      measure "$kind ${mb} MB: convert --to json" "$BIN" convert --to json "$f"
    fi
    if [ -n "$prev" ] && [ -n "$t" ] && [ "$size" -eq $((2 * prev_size)) ]; then
      local ratio verdict=ok
      ratio=$(awk -v a="$t" -v b="$prev" 'BEGIN { if (b < 0.05) b = 0.05; printf "%.2f", a / b }')
      if awk -v r="$ratio" 'BEGIN { exit !(r > 2.2) }'; then
        verdict="NOT LINEAR"
        failed=1
      fi
      echo "  $kind: validate -q time x$ratio for twice the input ($verdict)"
    fi
    prev=$t
    prev_size=$size
    rm -f "$f"
  done
}

run ggf-unclosed ggf 1000000 50000000 100000000
run ggf-nested ggf 1000000 50000000 100000000
run ggf-junk ggf 1000000 50000000 100000000
run ggf-props ggf 8500000 50000000 100000000
run json-junk json 1000000 100000000
run yaml yaml 1000000 99000000 198000000
run pentobi-wide blksgf 250000 500000 1000000 100000000
exit $failed

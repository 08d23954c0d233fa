#!/usr/bin/env bash
# Peak memory and linear time of the streaming pipeline (issue "Stream every
# command"). Not part of `cargo test`: it writes about 1.5 GB of generated
# input under a temporary folder and takes a few minutes.
#
#   benches/memory.sh [WTHOR_DIR]    (default: ../shared/data/wthor)
#
# Prints one line per run: peak resident memory (/usr/bin/time), seconds,
# and whether it is within the 64 MB bound; then the time ratio of the 1 GB
# file to the 500 MB one (at most 2.2 is linear enough). Exits 1 when a
# bound is broken.
set -euo pipefail
cd "$(dirname "$0")/.."
wthor=${1:-../shared/data/wthor}
cargo build --release --quiet
bin=$PWD/target/release/gamerec
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
limit_kb=$((64 * 1024))
failed=0

measure() { # label, command...
  local label=$1
  shift
  local out
  # /usr/bin/time writes its line last on the command's stderr
  /usr/bin/time -f 'TIME %M %e' "$@" >/dev/null 2>"$work/err" || true
  out=$(grep '^TIME' "$work/err" | tail -1)
  local kb secs
  kb=$(echo "$out" | awk '{print $2}')
  secs=$(echo "$out" | awk '{print $3}')
  local verdict=ok
  if [ "${kb:-0}" -gt "$limit_kb" ]; then
    verdict="OVER 64 MB"
    failed=1
  fi
  printf '%-52s %8s KB %8s s  %s\n' "$label" "$kb" "$secs" "$verdict"
  echo "$secs" > "$work/last_secs"
}

if [ -d "$wthor" ]; then
  measure "wthor: validate -q" "$bin" validate -q "$wthor"
  measure "wthor: validate --format json" "$bin" validate --format json "$wthor"
  measure "wthor: validate --format jsonl" "$bin" validate --format jsonl "$wthor"
  # the database as one gamerec text file
  for f in "$wthor"/*.wtb "$wthor"/*.WTB; do
    [ -e "$f" ] || continue
    "$bin" convert --to gamerec "$f" 2>/dev/null
    echo
  done > "$work/wthor.gamerec"
  measure "wthor as text ($(du -m "$work/wthor.gamerec" | cut -f1) MB): convert --to json" \
    "$bin" convert --to json "$work/wthor.gamerec"
  # 500 MB and 1 GB of it
  : > "$work/half.gamerec"
  while [ "$(stat -c %s "$work/half.gamerec")" -lt $((500 * 1024 * 1024)) ]; do
    cat "$work/wthor.gamerec" >> "$work/half.gamerec"
  done
  cat "$work/half.gamerec" "$work/half.gamerec" > "$work/full.gamerec"
  measure "500 MB text: validate -q" "$bin" validate -q "$work/half.gamerec"
  half=$(cat "$work/last_secs")
  measure "1 GB text: validate -q" "$bin" validate -q "$work/full.gamerec"
  full=$(cat "$work/last_secs")
  measure "1 GB text: validate --format json" "$bin" validate --format json "$work/full.gamerec"
  measure "1 GB text: convert --to yaml" "$bin" convert --to yaml "$work/full.gamerec"
  ratio=$(awk -v a="$full" -v b="$half" 'BEGIN { printf "%.2f", a / b }')
  verdict=ok
  if awk -v r="$ratio" 'BEGIN { exit !(r > 2.2) }'; then
    verdict="NOT LINEAR"
    failed=1
  fi
  echo "time 1 GB / 500 MB: $ratio ($verdict)"
  rm -f "$work/half.gamerec" "$work/full.gamerec"
else
  echo "no WTHOR database at $wthor: its rows are skipped"
fi

# a million tiny games in one file
python3 - "$work/million.gamerec" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(1_000_000):
        f.write('[Game "reversi"]\nf5\n')
PY
measure "1,000,000 games ($(du -m "$work/million.gamerec" | cut -f1) MB): validate" \
  "$bin" validate "$work/million.gamerec"
measure "1,000,000 games: convert --to json" "$bin" convert --to json "$work/million.gamerec"
exit $failed

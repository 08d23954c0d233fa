#!/usr/bin/env bash
# The speed table's commands on generated corpora: one line per row, with
# games (or perft leaves) per second of user CPU time on one thread (the
# median of RUNS runs). With BASE=/path/to/an/older/gamerec, each row runs
# the older binary too, interleaved, and prints the ratio.
#
#   benches/compare.sh                  # corpora in $OUT (default target/corpus)
#   BASE=/tmp/gamerec-old RUNS=5 benches/compare.sh
#
# Environment: BIN (default target/release/gamerec), WTHOR (a WTHOR directory;
# default /work/shared/data/wthor or ../shared/data/wthor when present, else a
# generated .wtb), PERFT_DEPTH (default 12), RUNS (default 3), REPEAT (default
# 5: the `validate -q` rows read their input that many times in one run, so
# that a fast row's time stands well above the timer's 0.01 s).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-target/release/gamerec}
OUT=${OUT:-target/corpus}
RUNS=${RUNS:-3}
PERFT_DEPTH=${PERFT_DEPTH:-12}
BASE=${BASE:-}
REPEAT=${REPEAT:-5}
export RAYON_NUM_THREADS=1

cargo build --release --quiet --bin gamerec --example gencorpus
GEN=target/release/examples/gencorpus
mkdir -p "$OUT"

if [ -z "${WTHOR:-}" ]; then
    for d in /work/shared/data/wthor ../shared/data/wthor; do
        if [ -d "$d" ]; then WTHOR=$d; break; fi
    done
fi
if [ -z "${WTHOR:-}" ]; then
    [ -f "$OUT/gen.wtb" ] || "$GEN" wthor 120000 "$OUT/gen.wtb"
    WTHOR=$OUT/gen.wtb
fi
# one text file (`convert -o` of a directory would write a directory)
[ -d "$OUT/wthor.gamerec" ] && rm -r "$OUT/wthor.gamerec"
[ -f "$OUT/wthor.gamerec" ] ||
    "$BIN" convert -q --to gamerec "$WTHOR" >"$OUT/wthor.gamerec" 2>/dev/null || true
[ -f "$OUT/blokus.gamerec" ] || "$GEN" blokus 4000 "$OUT/blokus.gamerec"
[ -f "$OUT/qwirkle.gamerec" ] || "$GEN" qwirkle 30000 "$OUT/qwirkle.gamerec"
[ -f "$OUT/deblockle.gamerec" ] || "$GEN" deblockle 20000 "$OUT/deblockle.gamerec"
[ -f "$OUT/blokus3d.gamerec" ] || "$GEN" blokus3d 50000 "$OUT/blokus3d.gamerec"

# user seconds of one run of the command
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT
user_time() {
    /usr/bin/time -f '%U' -o "$TIMES" "$@" >/dev/null 2>&1 || true
    tail -n1 "$TIMES"
}

# median user seconds of RUNS runs
median() {
    sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# games in a validated input (from the summary line)
games_in() {
    "$BIN" validate -q "$1" 2>/dev/null | awk '{print $1; exit}'
}

# row NAME UNITS COMMAND...: prints NAME, units, user time, rate (and the
# older binary's, with the ratio, when BASE is set)
row() {
    local name=$1 units=$2
    shift 2
    local new=() old=()
    for _ in $(seq "$RUNS"); do
        new+=("$(user_time "$BIN" "$@")")
        if [ -n "$BASE" ]; then old+=("$(user_time "$BASE" "$@")"); fi
    done
    local tn to
    tn=$(printf '%s\n' "${new[@]}" | median)
    if [ -n "$BASE" ]; then
        to=$(printf '%s\n' "${old[@]}" | median)
        awk -v n="$name" -v u="$units" -v a="$tn" -v b="$to" 'BEGIN {
            ra = (a > 0) ? u / a : 0; rb = (b > 0) ? u / b : 0;
            printf "%-44s %12d  %7.2fs %14.0f/s   base %7.2fs %14.0f/s   x%.2f\n",
                n, u, a, ra, b, rb, (a > 0) ? b / a : 0 }'
    else
        awk -v n="$name" -v u="$units" -v a="$tn" 'BEGIN {
            printf "%-44s %12d  %7.2fs %14.0f/s\n", n, u, a, (a > 0) ? u / a : 0 }'
    fi
}

# quiet NAME INPUT: the `validate -q` row of INPUT, read REPEAT times
quiet() {
    local inputs=()
    for _ in $(seq "$REPEAT"); do inputs+=("$2"); done
    row "$1" "$(($(games_in "$2") * REPEAT))" validate -q "${inputs[@]}"
}

printf '%-44s %12s  %8s %16s\n' "row" "games" "user" "per second"
quiet "WTHOR database, validate -q" "$WTHOR"
quiet "the same games as gamerec text, validate -q" "$OUT/wthor.gamerec"
quiet "Blokus text games, validate -q" "$OUT/blokus.gamerec"
quiet "Qwirkle text games, validate -q" "$OUT/qwirkle.gamerec"
quiet "Deblockle text games, validate -q" "$OUT/deblockle.gamerec"
quiet "Blokus 3D tower games (4 colours), validate -q" "$OUT/blokus3d.gamerec"
leaves=$("$BIN" perft reversi "$PERFT_DEPTH")
row "perft reversi $PERFT_DEPTH (leaves)" "$leaves" perft reversi "$PERFT_DEPTH"
row "WTHOR validate --format json" "$(games_in "$WTHOR")" validate --format json "$WTHOR"
row "WTHOR convert --to json" "$(games_in "$WTHOR")" convert --to json "$WTHOR"

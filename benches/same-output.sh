#!/usr/bin/env bash
# Runs two gamerec binaries over every fixture and a generated corpus of
# every game, command by command, and compares what each writes: standard
# output, standard error and the exit code, byte for byte. For refactorings
# that must change no output. Prints the commands whose output differs (the
# first lines of the difference) and a count; exits 1 on any difference.
#
#   BASE=/tmp/old/gamerec benches/same-output.sh            # NEW: target/release/gamerec
#   BASE=/tmp/old/gamerec NEW=/tmp/new/gamerec FILTER=reversi benches/same-output.sh
#
# Environment: BASE (required), NEW (default target/release/gamerec), OUT
# (scratch folder, default target/same-output), GAMES (games per generated
# corpus, default 300), FILTER (only fixtures whose path contains it),
# QUICK=1 (fewer commands per fixture: validate, json, score, convert json).
# Give both binaries the same file name (`gamerec`): usage lines name it.
set -uo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:?BASE=/path/to/the/older/gamerec}
NEW=${NEW:-target/release/gamerec}
OUT=${OUT:-target/same-output}
GAMES=${GAMES:-300}
FILTER=${FILTER:-}
QUICK=${QUICK:-}
export NO_COLOR=1 RAYON_NUM_THREADS=1 TERM=dumb COLUMNS=100

rm -rf "$OUT"
mkdir -p "$OUT/corpus" "$OUT/a" "$OUT/b"

if [ ! -x target/release/examples/gencorpus ]; then
    cargo build --release --quiet --example gencorpus
fi
GEN=target/release/examples/gencorpus
for game in reversi blokus qwirkle deblockle blokus3d; do
    "$GEN" "$game" "$GAMES" "$OUT/corpus/$game.gamerec" >/dev/null 2>&1 || true
done
"$GEN" wthor "$GAMES" "$OUT/corpus/gen.wtb" >/dev/null 2>&1 || true

runs=0
diffs=0
# run NAME ARGS...: both binaries, same arguments, same folder
run() {
    local name=$1
    shift
    runs=$((runs + 1))
    local a="$OUT/a/out" b="$OUT/b/out"
    rm -rf "$OUT/a/o" "$OUT/b/o" "$OUT"/a/o.* "$OUT"/b/o.*
    "$BASE" "${@//@O@/$OUT/a/o}" >"$a.stdout" 2>"$a.stderr" </dev/null
    echo "$?" >"$a.rc"
    "$NEW" "${@//@O@/$OUT/b/o}" >"$b.stdout" 2>"$b.stderr" </dev/null
    echo "$?" >"$b.rc"
    # what was written: the -o folder, or a file `o.EXT` (`html -o @O@.html`)
    if [ -e "$OUT/a/o" ] || [ -e "$OUT/b/o" ] ||
        compgen -G "$OUT/a/o.*" >/dev/null || compgen -G "$OUT/b/o.*" >/dev/null; then
        (cd "$OUT/a" && find o o.* -type f -exec cat {} + 2>/dev/null) >"$a.files"
        (cd "$OUT/b" && find o o.* -type f -exec cat {} + 2>/dev/null) >"$b.files"
    else
        : >"$a.files"
        : >"$b.files"
    fi
    # the -o folder's name differs between the two runs
    sed -i "s#$OUT/a/o#@O@#g" "$a.stdout" "$a.stderr"
    sed -i "s#$OUT/b/o#@O@#g" "$b.stdout" "$b.stderr"
    local part
    for part in stdout stderr rc files; do
        if ! cmp -s "$a.$part" "$b.$part"; then
            diffs=$((diffs + 1))
            echo "DIFF ($part): $name: gamerec $*"
            diff "$a.$part" "$b.$part" | head -n 6 | cut -c1-200
            break
        fi
    done
}

per_file() {
    local f=$1
    run validate validate --color never "$f"
    run validate-json validate --format json "$f"
    run score score --color never "$f"
    run convert-json convert --to json "$f"
    [ -n "$QUICK" ] && return
    run validate-jsonl validate --format jsonl "$f"
    run validate-github validate --format github "$f"
    run validate-sarif validate --format sarif "$f"
    run validate-junit validate --format junit "$f"
    run score-json score --format json "$f"
    run score-plot score --plot @O@.svg "$f"
    local to
    for to in yaml gamerec ggf blksgf; do
        run "convert-$to" convert --to "$to" "$f"
    done
    run convert-wthor convert --to wthor -o @O@/x.wtb "$f"
    run show show --color never "$f"
    run show-1 show --color never --ply 1 "$f"
    run show-svg show --svg - "$f"
    run moves moves "$f"
    run moves-1 moves --ply 1 "$f"
}

while IFS= read -r f; do
    [ -n "$FILTER" ] && [[ $f != *"$FILTER"* ]] && continue
    per_file "$f"
done < <(find fixtures -type f | LC_ALL=C sort)

if [ -z "$FILTER" ]; then
    for f in "$OUT"/corpus/*; do
        run "corpus-validate" validate --color never "$f"
        run "corpus-json" validate --format json "$f"
        run "corpus-jsonl" validate --format jsonl "$f"
        run "corpus-score" score --format json "$f"
        run "corpus-convert-json" convert --to json "$f"
        run "corpus-convert-yaml" convert --to yaml "$f"
        run "corpus-convert-gamerec" convert --to gamerec "$f"
        run "corpus-html" html -o @O@.html "$f"
    done
    run fixtures-validate validate --color never fixtures
    run fixtures-json validate --format json fixtures
    run fixtures-convert convert --to json -o @O@ fixtures
    run fixtures-html html -o @O@.html fixtures
    run perft-reversi perft -q --divide reversi 6
    run perft-reversi-6x6 perft -q --divide reversi 5 --variant 6x6
    run perft-blokus perft -q --divide blokus 2
    run perft-duo perft -q --divide blokus 3 --variant duo
    run perft-trigon perft -q --divide blokus 2 --variant trigon
    run perft-qwirkle perft -q --divide qwirkle 1
    run perft-deblockle perft -q --divide deblockle 3
    run perft-blokus3d perft -q --divide blokus3d 2 --area cube3 --players 2
    run tags-reversi tags reversi
    run schema schema
fi

echo "$runs commands, $diffs with different output"
[ "$diffs" -eq 0 ]

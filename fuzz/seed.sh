#!/usr/bin/env bash
# Fills each fuzz target's corpus (fuzz/corpus/<target>/, not committed)
# from the fixtures, their conversions to the other formats, and the
# hostile reproducers of tests/hostile.rs and tests/robustness.rs (the same
# one-line generators, at small sizes). Files already there are kept, so a
# corpus grown by earlier runs stays; a seed is named by its content.
#
#   fuzz/seed.sh              (GAMEREC=path/to/gamerec to convert with another build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpus=$root/fuzz/corpus
if [ -z "${GAMEREC:-}" ]; then
  GAMEREC=$root/target/debug/gamerec
  [ -x "$GAMEREC" ] || cargo build --quiet --bin gamerec
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# add TARGET FILE...: copies each file into the target's corpus, named by
# its content's hash
add() {
  local target=$1
  shift
  mkdir -p "$corpus/$target"
  local f
  for f in "$@"; do
    [ -s "$f" ] || continue
    cp "$f" "$corpus/$target/$(sha1sum "$f" | cut -c1-40)"
  done
}

# gen TARGET: a seed from standard input
gen() {
  local f="$work/gen"
  cat >"$f"
  add "$1" "$f"
}

# py TARGET EXPRESSION: a seed written by a Python expression (bytes or str)
py() {
  python3 -c "import sys; x = $2; sys.stdout.buffer.write(x if isinstance(x, bytes) else x.encode())" | gen "$1"
}

fixtures() { # extension...: every fixture with one of them
  local e args=()
  for e in "$@"; do args+=(-o -name "*.$e"); done
  find "$root/fixtures" -type f \( -false "${args[@]}" \) | sort
}

# readers: the fixtures of their format
mapfile -t gamerec_files < <(fixtures gamerec pgn)
add read_gamerec "${gamerec_files[@]}"
mapfile -t files < <(fixtures json); add read_json "${files[@]}"
mapfile -t files < <(fixtures yaml yml); add read_yaml "${files[@]}"
mapfile -t files < <(fixtures ggf); add read_ggf "${files[@]}"
mapfile -t files < <(fixtures blksgf); add read_pentobi "${files[@]}"
mapfile -t files < <(fixtures wtb); add read_wthor "${files[@]}"
mapfile -t files < <(fixtures txt); add read_transcript "${files[@]}"
mapfile -t files < <(fixtures csv); add read_csv "${files[@]}"
mapfile -t files < <(fixtures obf); add read_obf "${files[@]}"

# the valid text fixtures converted to every text format the game allows
i=0
for f in "${gamerec_files[@]}"; do
  i=$((i + 1))
  for to in json:read_json yaml:read_yaml ggf:read_ggf blksgf:read_pentobi; do
    out="$work/conv$i.${to%%:*}"
    if "$GAMEREC" convert -q --to "${to%%:*}" "$f" >"$out" 2>/dev/null; then
      add "${to#*:}" "$out"
    fi
  done
done
for f in $(fixtures wtb); do
  out="$work/wtb.gamerec"
  "$GAMEREC" convert -q --to gamerec "$f" 2>/dev/null | head -c 65536 >"$out" || true
  add read_gamerec "$out"
done

# game notations: each game's fixtures without their `Game` tag (the
# target writes it)
for game in reversi blokus blokus3d qwirkle deblockle; do
  for f in $(find "$root/fixtures/$game" -name '*.gamerec' | sort); do
    grep -v '^\[Game "' "$f" >"$work/notation" || true
    add "notation_$game" "$work/notation"
  done
done
gen notation_blokus <<<'[Variant "trigon"]'
gen notation_blokus <<<'[Variant "duo"]'
gen notation_reversi <<<'[Size "6"]'

# the hostile reproducers (tests/hostile.rs, tests/robustness.rs), small
py read_ggf '"(;GM[Othello]" * 200'
py read_ggf '"(;" * 300 + ";)" * 300'
py read_ggf '"x(;GM[Othello];)\n" * 50'
py read_ggf '"junk\nmore junk\n(;GM[Othello]B[f5];)x y\n(;GM[Othello];) z"'
py read_ggf '"(;GM[Othello]" + "C[x]" * 300 + "B[f5];)"'
py read_ggf '"(;GM[Othello]" + "PB[x]" * 30 + "B[f5];)\n"'
py read_ggf '"(;GM[Othello]C[" + "x" * 300 + "]B[f5];)\n(;GM[Othello]B[f5];)\n"'
py read_pentobi '"(;GM[Blokus Duo]" + "(;B[e10])" * 300 + ")\n"'
py read_pentobi '"(;GM[Blokus]C[" + "x" * 300 + "];1[a1])\n(;GM[Blokus];1[a1])\n"'
py read_pentobi '"(;GM[Blokus Duo]PB[a]PB[b]EV[x]EV[y];B[e10])\n"'
py read_transcript '"f5" + " d6" * 300 + "\nf5\n"'
py read_json '"{\"games\": [{\"game\": \"reversi\", \"tags\": [[\"X\", \"" + "x" * 300 + "\"]], \"moves\": []}, {\"game\": \"reversi\", \"tags\": [], \"moves\": [{\"notation\": \"f5\"}]}]}"'
py read_json '"{\"games\": [{\"game\": \"reversi\", \"tags\": [[\"Event\", \"a\\u0000b\"]], \"moves\": [{\"notation\": \"f5\"}]}]}"'
py read_json '"{\"games\": []}"'
py read_json '"{" + "x" * 300'
py read_yaml '"# a comment\nother: [1, 2]\ngames:\n" + "".join("- game: reversi\n  tags:\n  - - Event\n    - &e \x27game %d\x27\n  - - Round\n    - *e\n  moves:\n  - notation: f5\n  - notation: d6\n" % i for i in range(3)) + "after: 1\n"'
py read_yaml '"games:\n- game: reversi\n  tags: [[Event, &e x]]\n  moves: []\n- game: reversi\n  tags: [[Event, *e]]\n  moves: []\n"'
py read_yaml '"games: [{game: reversi, tags: [], moves: [{notation: f5}]}]\n"'
py read_yaml '"games:\n- game: reversi\n  tags: []\n  comment: \"" + "{" * 70 + "\\n" + "{" * 70 + "\"\n  moves:\n  - notation: f5\n"'
py read_yaml '"games: " + "[" * 80 + "]" * 80 + "\n"'
py read_gamerec '"[Game \"reversi\"]\n\n{ a\n" + "{" * 70 + " }\nf5\n"'
py read_gamerec '"[Game \"reversi\"]\n[Event \"a\nb\"]\n\nf5\n"'
py read_gamerec '"[bad tag]\n" * 30'
py read_gamerec '"{" * 300 + "}" * 300 + "[" * 300'
py read_gamerec '"[Game \"reversi\"]\n\n{ unterminated\n" * 30'
py read_gamerec '"[Game \"reversi\"]\n[Event \"\x1b[31m\u202e\x07\"]\n\nf5\n"'
py read_gamerec '"[Game \"reversi\"]\n[Event \"<!--<script>\"]\n\nf5 d6\n"'
# WTHOR: headers announcing 0, 2 and 9 games, with 8 present
for announced in 0 2 9; do
  py read_wthor "bytes([20, 21, 1, 1]) + ($announced).to_bytes(4, 'little') + bytes([0, 0]) + (1999).to_bytes(2, 'little') + bytes([8, 0, 22, 0]) + bytes(([1, 0, 2, 0, 3, 0, 32, 32, 56, 46, 35] + [0] * 57) * 8)"
done

for d in "$corpus"/*/; do
  printf '%-22s %4d seeds\n' "$(basename "$d")" "$(find "$d" -type f | wc -l)"
done

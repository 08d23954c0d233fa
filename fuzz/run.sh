#!/usr/bin/env bash
# Runs fuzz targets one after the other (never two at once), each for
# SECONDS, from the corpus fuzz/seed.sh fills, with its dictionary; memory is
# capped at 256 MB and one input may take at most 10 s. Exits 1 when a
# target finds something: a crash (a panic, an assertion of the read-back
# check), an input over the memory cap (oom-*) or too slow (timeout-*);
# libFuzzer keeps the input in fuzz/artifacts/<target>/ and says how to
# reproduce it.
#
#   fuzz/run.sh SECONDS [TARGET...]      (default: every target)
#   JOBS=1 fuzz/run.sh 1800 read_ggf     (libFuzzer's -jobs=1 -workers=1: a
#                                         fresh worker after a find, the log in
#                                         fuzz/fuzz-0.log)
#
# The toolchain may be stable: RUSTC_BOOTSTRAP=1 lets cargo fuzz pass the
# sanitizer flags it needs.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
export RUSTC_BOOTSTRAP=1
if [ $# -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list)
else
  targets=("$@")
fi
[ -d corpus ] || ./seed.sh
cargo fuzz build

dict_of() {
  case $1 in
    read_gamerec | notation_*) echo dict/gamerec.dict ;;
    read_json) echo dict/json.dict ;;
    read_yaml) echo dict/yaml.dict ;;
    read_ggf) echo dict/ggf.dict ;;
    read_pentobi) echo dict/pentobi.dict ;;
    read_wthor) echo dict/wthor.dict ;;
    read_transcript | read_csv) echo dict/csv.dict ;;
  esac
}

found=()
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  before=$(find "artifacts/$t" -type f | wc -l)
  args=(-max_total_time="$seconds" -rss_limit_mb=256 -timeout=10 -print_final_stats=1)
  dict=$(dict_of "$t")
  [ -n "$dict" ] && args+=(-dict="$dict")
  [ -n "${JOBS:-}" ] && args+=(-jobs=1 -workers=1)
  echo "== $t: ${seconds}s"
  status=0
  cargo fuzz run "$t" "corpus/$t" -- "${args[@]}" 2>&1 | tee "artifacts/$t.log" |
    grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ERROR|SUMMARY|thread .* panicked)' || true
  status=${PIPESTATUS[0]}
  if [ -n "${JOBS:-}" ] && [ -f fuzz-0.log ]; then
    grep -E '^(Done|stat::|==[0-9]+== ERROR|SUMMARY)' fuzz-0.log || true
    mv fuzz-0.log "artifacts/$t.worker.log"
  fi
  after=$(find "artifacts/$t" -type f | wc -l)
  if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
    found+=("$t")
  fi
done
if [ ${#found[@]} -gt 0 ]; then
  echo "fuzzing found something in: ${found[*]} (inputs in fuzz/artifacts/)" >&2
  exit 1
fi
echo "fuzzing: ${#targets[@]} targets, nothing found"

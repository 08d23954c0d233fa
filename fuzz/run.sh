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
#   JOBS=1 fuzz/run.sh 1800 read_ggf     (libFuzzer's -jobs=1 -workers=1, the
#                                         worker's log in fuzz/artifacts/<target>.worker.log)
#   FORK=1 fuzz/run.sh 1800 read_ggf     (-fork=1: one child process at a time,
#                                         going on after a find, so that one run
#                                         collects every find, each kept)
#
# The toolchain may be stable: RUSTC_BOOTSTRAP=1 lets cargo fuzz pass the
# sanitizer flags it needs.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
export RUSTC_BOOTSTRAP=1
# AddressSanitizer (the Reversi and record SIMD code is `unsafe`) with a
# small quarantine: its default 256 MB of freed memory held back would
# itself pass the memory cap, which is meant for what gamerec keeps.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:malloc_context_size=5}
if [ $# -eq 0 ]; then
  mapfile -t targets < <(cargo fuzz list)
else
  targets=("$@")
fi
[ -d corpus ] || ./seed.sh
# Every target built once; each is then run as it stands (`cargo fuzz run`
# would build again, with other flags: everything a second time)
cargo fuzz build
bin=target/$(rustc -vV | sed -n "s/^host: //p")/release

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
  [ -n "${FORK:-}" ] && args+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
  echo "== $t: ${seconds}s"
  status=0
  "$bin/$t" -artifact_prefix="artifacts/$t/" "${args[@]}" "corpus/$t" >"artifacts/$t.log" 2>&1 || status=$?
  grep -a -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+: cov)' "artifacts/$t.log" | tail -3 || true
  grep -a -E -A3 '^(==[0-9]+== ERROR|SUMMARY|thread .* panicked)' "artifacts/$t.log" | head -20 || true
  if [ -n "${JOBS:-}" ] && [ -f fuzz-0.log ]; then
    grep -a -E '^(Done|stat::|==[0-9]+== ERROR|SUMMARY)' fuzz-0.log || true
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

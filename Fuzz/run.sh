#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Targets) into .build-fuzz, apart from the normal build, and runs each on
# a working copy of its seed corpus (Fuzz/Corpus/<target>, never written to).
#
#   Fuzz/run.sh [SECONDS] [TARGET ...]     default: 30 seconds for each of the fourteen targets
#
# Fails on a crash, a leak, a timeout (one input running over 10 s) or running out of memory, and prints the
# reproducer; run it again with `.build-fuzz/release/<target> <reproducer>`. Linux: libFuzzer ships with the
# swift.org toolchains, not with Xcode's.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzBinaryPlist FuzzXMLPlist FuzzAppleDouble FuzzArchive FuzzBinaryCookies FuzzSecretScan FuzzReportReader FuzzBaseline FuzzConfiguration FuzzBackupManifest FuzzURLCache FuzzLocalStorage FuzzMachO FuzzRecord)
scratch=.build-fuzz
# Package.swift declares the fuzz targets only with this set, so `swift build` never sees them.
export STOCKTAKE_FUZZ=1
# Two `--sanitize` flags become two `-sanitize=` options and swiftc keeps only the last (no coverage for
# Swift code): ask for both in one. `-enable-testing` lets the targets reach internal parsers.
build=(swift build -c release --scratch-path "$scratch" --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address
  -Xcc -fsanitize=address -Xswiftc -enable-testing)

mkdir -p "$scratch"
for target in "${targets[@]}"; do
  echo "--- fuzz build: $target"
  "${build[@]}" --product "$target" > "$scratch/build.log" 2>&1 || { tail -n 40 "$scratch/build.log"; exit 1; }
done
bin=$("${build[@]}" --show-bin-path)

# The Swift runtime's backtracer would catch a trap before libFuzzer and leave no reproducer.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=1

failed=0
for target in "${targets[@]}"; do
  work=$scratch/fuzz/$target
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
  dictionary=()
  [ -f "Fuzz/Dictionaries/$target.dict" ] && dictionary=(-dict="Fuzz/Dictionaries/$target.dict")
  status=0
  # The scratch files a target writes (one per process) stay in its work folder, not in the system's /tmp.
  TMPDIR="$PWD/$work/tmp" "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" ${dictionary[@]+"${dictionary[@]}"} "$work/corpus" "Fuzz/Corpus/$target" \
    > "$work/log.txt" 2>&1 || status=$?
  reproducers=$(find "$work/artifacts" -type f)
  if [ "$status" -ne 0 ] || [ -n "$reproducers" ]; then
    failed=1
    echo "--- $target FAILED (exit $status); the end of $work/log.txt:"
    tail -n 40 "$work/log.txt"
    for file in $reproducers; do echo "reproducer: $file   (run: $bin/$target $file)"; done
  else
    echo "--- $target: $(grep -E '^Done [0-9]+ runs' "$work/log.txt" || echo 'done'), $(grep -Eo 'cov: [0-9]+' "$work/log.txt" | tail -n 1)"
  fi
done
exit "$failed"

#!/usr/bin/env bash
# Makes room in a device call's carry (64 MiB with the working tree): the
# benchmark results' run archives are most of the tree, and no device run
# reads them.
#
#   tools/device/park-results.sh park [MIB]
#     moves the largest tools/bench/results/*/runs*.tar.xz out of the tree,
#     into ${CVR_PARK_DIR:-${TMPDIR:-/tmp}/cvr-parked-results}, until the
#     tracked files left take at most MIB (default 40); a pack's label then
#     shows "-dirty", its build unchanged
#   tools/device/park-results.sh restore
#     puts them back
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
parked=${CVR_PARK_DIR:-${TMPDIR:-/tmp}/cvr-parked-results}
case ${1:-} in
park)
  limit=$((${2:-40} * 1024 * 1024))
  cd "$root"
  # (what is parked already is tracked but gone: not counted, not parked again)
  total=$( (git ls-files -z | xargs -0 stat -c %s 2>/dev/null || true) | awk '{s += $1} END {print s + 0}')
  # largest first
  (git ls-files -z 'tools/bench/results/*/runs*.tar.xz' | xargs -0 -r stat -c '%s %n' 2>/dev/null || true) |
    sort -rn | while read -r size path; do
      ((total > limit)) || break
      mkdir -p "$parked/$(dirname "$path")"
      mv "$path" "$parked/$path"
      total=$((total - size))
      echo "parked $path ($((size / 1024)) KiB)"
    done
  ;;
restore)
  [[ -d $parked ]] || { echo "park-results.sh: nothing parked in $parked" >&2; exit 0; }
  (cd "$parked" && find . -type f -name '*.tar.xz' -print0) | while IFS= read -r -d '' f; do
    mkdir -p "$root/$(dirname "$f")"
    mv "$parked/$f" "$root/$f"
    echo "restored ${f#./}"
  done
  ;;
*)
  echo "usage: park-results.sh park [MIB] | restore" >&2
  exit 2
  ;;
esac

# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
# run.sh step "launch": what the host's launch adds to an event-timed kernel of 100, 200 and 500
# us, cvr-launch-timing. Sourced by tools/device/run.sh, whose variables it uses (out, pack, root,
# summary, note, configs).
for us in 100 200 500; do
  "$pack/bin/cvr-launch-timing" --us $us --repeats 400 >>"$out/launch-timing.jsonl" 2>>"$out/launch.err"
  note "launch timing ${us} us rc=$?"
done
grep '"mode"' "$out/launch-timing.jsonl" | tee -a "$summary"

# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""ctest's ParaView tests, carried to a machine without this checkout's paths.

    paraview_tests.py export CTEST_JSON --root R --build B --data D > tests.json
        the tests (ctest --show-only=json-v1 -L paraview) with their commands
        and environment, paths made placeholders: @ROOT@ (the checkout),
        @PLUGIN@ (the plugin's .so), @DATA@, @OUT@ (test output), @BIN@
        (where pvbatch, pvpython and mpiexec are)
    paraview_tests.py trace CTEST_JSON --tracer SITE --trace-dir DIR
        runs them here under xvfb-run with SITE (a sitecustomize module that
        lists the files each process loaded) first on PYTHONPATH
    paraview_tests.py run TESTS_JSON --root R --plugin P --data D --bin B --out O
        runs them (on the GPU machine, with the DISPLAY and libraries the caller
        set), a log per test in O and a summary line each; exit 1 if any failed
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

PROGRAMS = ("pvbatch", "pvpython", "pvserver", "mpiexec", "mpirun")


def ctest_tests(path):
    """(name, command, environment dict) of each test in ctest's JSON."""
    for test in json.load(open(path))["tests"]:
        env = {}
        for prop in test.get("properties", []):
            if prop["name"] == "ENVIRONMENT":
                for item in prop["value"]:
                    key, _, value = item.partition("=")
                    env[key] = value
        yield test["name"], test["command"], env


def export(args):
    plugin = os.path.join(args.build, "lib/paraview-plugins/CudaVolumeMapper/CudaVolumeMapper.so")
    swaps = [(plugin, "@PLUGIN@"),
             (os.path.join(args.build, "Testing/Temporary"), "@OUT@"),
             (os.path.join(args.build, "Testing/tuning-cache"), "@OUT@/tuning-cache"),
             (args.data, "@DATA@"), (os.path.realpath(args.data), "@DATA@"),
             (args.root, "@ROOT@")]

    def place(text):
        for path, mark in swaps:
            text = text.replace(path, mark)
        # /usr/bin/pvbatch and the like: the carried ones
        return re.sub(r"^/usr/bin/(%s)$" % "|".join(PROGRAMS), r"@BIN@/\1", text)

    tests = [{"name": name, "command": [place(a) for a in command],
              "env": {k: place(v) for k, v in env.items()}}
             for name, command, env in ctest_tests(args.ctest_json)]
    json.dump(tests, sys.stdout, indent=1)


def trace(args):
    failed = 0
    for name, command, env in ctest_tests(args.ctest_json):
        run_env = dict(os.environ, **env)
        run_env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.tracer, env.get("PYTHONPATH")]))
        run_env["CVR_TRACE_DIR"] = args.trace_dir
        xvfb = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24 -noreset"]
        rc = subprocess.call(xvfb + command, env=run_env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        print("traced %s (rc %d)" % (name, rc))
        failed += rc not in (0, 125)
    return 1 if failed else 0


def run(args):
    places = {"@PLUGIN@": args.plugin, "@OUT@": args.out, "@DATA@": args.data,
              "@ROOT@": args.root, "@BIN@": args.bin}

    def fill(text):
        for mark, path in places.items():
            text = text.replace(mark, path)
        return text

    os.makedirs(args.out, exist_ok=True)
    wanted = set(args.only.split(",")) if args.only else None
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for test in json.load(open(args.tests_json)):
        if wanted and not any(w in test["name"] for w in wanted):
            continue
        env = dict(os.environ, **{k: fill(v) for k, v in test["env"].items()})
        log_path = os.path.join(args.out, test["name"].split(".")[-1] + ".log")
        start = time.time()
        with open(log_path, "w") as log:
            try:
                rc = subprocess.call([fill(a) for a in test["command"]], env=env, stdout=log,
                                     stderr=subprocess.STDOUT, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                rc = "timeout"
        text = open(log_path, errors="replace").read()
        # as ctest's FAIL_REGULAR_EXPRESSION for VTK tests: errors fail a test
        if rc == 0 and re.search(r"Failed Image Test|ImageNotFound", text):
            rc = "image"
        result = {0: "passed", 125: "skipped"}.get(rc, "failed")
        counts[result] += 1
        shown = [line for line in text.splitlines()
                 if re.search(r"cuda|CUDA|OpenGL renderer|interop|device", line)
                 and "WARN" not in line]
        print("%-48s %-8s %5.1f s  %s" % (test["name"], result if rc in (0, 125) else
                                          "FAILED (%s)" % rc, time.time() - start,
                                          shown[-1][:160] if shown else ""), flush=True)
    print("paraview tests: %(passed)d passed, %(failed)d failed, %(skipped)d skipped" % counts)
    return 1 if counts["failed"] else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="verb", required=True)
    e = sub.add_parser("export")
    e.add_argument("ctest_json")
    e.add_argument("--root", required=True)
    e.add_argument("--build", required=True)
    e.add_argument("--data", required=True)
    t = sub.add_parser("trace")
    t.add_argument("ctest_json")
    t.add_argument("--tracer", required=True)
    t.add_argument("--trace-dir", required=True)
    r = sub.add_parser("run")
    r.add_argument("tests_json")
    for name in ("--root", "--plugin", "--data", "--bin", "--out"):
        r.add_argument(name, required=True)
    r.add_argument("--only", help="comma-separated parts of test names")
    r.add_argument("--timeout", type=float, default=300)
    args = p.parse_args()
    return {"export": export, "trace": trace, "run": run}[args.verb](args) or 0


if __name__ == "__main__":
    sys.exit(main())

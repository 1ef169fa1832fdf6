# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""Client and server: pvpython connects to `mpiexec -np 2 pvserver` on this
machine, loads the plugin on both sides, and renders the Wavelet as CUDA
Volume there; the server's ranks render their pieces and composite them, and
the client gets the image.

Checks: the statistics reach the client, a line from each server rank that
rendered; and the image equals the stock Volume representation's (VTK's
mapper: the server runs with CVR_OVERRIDE_GPU_VOLUME_MAPPER=0) through the
same server within the MPI test's bounds (mean difference at most 0.5
levels, at most 0.5% of the pixels off by more than 8, no row or column with
more than 5% of them). Not against pvpython's own session: ParaView's
client-server images are brighter than its built-in session's, by 1.44
levels on average with VTK's mapper as with this one (5% of the pixels by
more than 8), seen here with both."""
import argparse
import builtins  # paraview.simple's * brings a max() of its own
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading

p = argparse.ArgumentParser()
p.add_argument("--plugin", required=True)
p.add_argument("--pvserver", required=True)
p.add_argument("--mpiexec", required=True)
p.add_argument("--output", required=True)
p.add_argument("--ranks", type=int, default=2)
args = p.parse_args()

from paraview.simple import *  # noqa: E402,F401,F403
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402
from vtkmodules.vtkIOImage import vtkPNGReader  # noqa: E402
from cvr_pvtest import wavelet_scene  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def start_server(port):
    """mpiexec -np RANKS pvserver, once it accepts connections."""
    cmd = [args.mpiexec, "--allow-run-as-root", "--oversubscribe", "-np", str(args.ranks),
           args.pvserver, "--force-offscreen-rendering", "--server-port=%d" % port]
    if shutil.which("xvfb-run"):  # an X server of its own, as the MPI test
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1024x768x24 -noreset"] + cmd
    # this pvpython is an MPI singleton: its variables would make the nested
    # mpiexec think it is part of that job
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMPI_", "PMIX_", "OPAL_", "PRTE_"))}
    env["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
    env["CVR_OVERRIDE_GPU_VOLUME_MAPPER"] = "0"  # the stock Volume keeps VTK's mapper
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env=env, start_new_session=True)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in server.stdout] and None,
                     daemon=True).start()
    log = []
    while True:
        try:
            line = lines.get(timeout=120)
        except queue.Empty:
            break
        log.append(line)
        if "Accepting connection" in line:
            return server, log
    os.killpg(server.pid, signal.SIGKILL)
    print("".join(log[-40:]))
    print("pvserver did not start within 120 s")
    sys.exit(1)


def render(image, representation, rep=None):
    """The Wavelet shown as REPRESENTATION on the server; returns its pixels,
    the statistics of its last frame and the representation."""
    if rep is None:
        LoadPlugin(args.plugin, remote=False, ns=globals())
        LoadPlugin(args.plugin, remote=True, ns=globals())
        # the server renders, whatever the data's size (else small data
        # travels to the client and renders there), and sends its image as it is
        settings = GetSettingsProxy("RenderViewSettings")
        settings.RemoteRenderThreshold = 0.0
        settings.CompressorConfig = "NULL"
        view, rep = wavelet_scene(representation)
    rep.Representation = representation
    view = GetActiveView()
    Render(view)
    SaveScreenshot(image, view, ImageResolution=[320, 320])
    rep.UpdatePropertyInformation()
    statistics = rep.GetPropertyValue("CudaLastFrameStatistics")
    reader = vtkPNGReader()
    reader.SetFileName(image)
    reader.Update()
    out = reader.GetOutput()
    w, h, _ = out.GetDimensions()
    pixels = vtk_to_numpy(out.GetPointData().GetScalars()).reshape(h, w, -1)[:, :, :3]
    return pixels.astype(int), statistics, rep


port = free_port()
server, log = start_server(port)
try:
    Connect("localhost", port)
    cuda, statistics, rep = render(os.path.join(args.output, "TestCudaVolumeServer.png"),
                                   "CUDA Volume")
    stock, _, _ = render(os.path.join(args.output, "TestCudaVolumeServer-stock.png"), "Volume",
                         rep)
    Disconnect()
finally:
    try:
        server.wait(timeout=30)  # pvserver ends when its client leaves
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
print("statistics from the server (%d ranks):\n%s" % (args.ranks, statistics))

lines = statistics.splitlines()
ok = len(lines) == args.ranks and all("rays" in line for line in lines)
if args.ranks > 1:
    ok = ok and all(line.startswith("rank %d: " % r) for r, line in enumerate(lines))
print("a line from each rank: %s" % ("ok" if ok else "NO"))
shows = (cuda != cuda[0, 0]).any()
print("the volume is shown: %s" % ("ok" if shows else "NO"))
diff = abs(stock - cuda).max(axis=2)
mean, over = abs(stock - cuda).mean(), (diff > 8).mean()
seam = builtins.max((diff > 8).mean(axis=0).max(), (diff > 8).mean(axis=1).max())
good = mean <= 0.5 and over <= 0.005 and seam <= 0.05
print("CUDA Volume vs the stock Volume through the server: mean %.3f levels, %.3f%% of pixels "
      "over 8 levels, worst row/column %.2f%%: %s" % (mean, 100 * over, 100 * seam,
                                                      "ok" if good else "OUTSIDE"))
ok = ok and shows and good
print("passed" if ok else "FAILED")
sys.exit(0 if ok else 1)

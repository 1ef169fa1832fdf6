# SPDX-FileCopyrightText: Copyright (c) 2026 the CudaVolumeMapper authors
# SPDX-License-Identifier: BSD-3-Clause
"""What the documentation says of the plugin, run: every Python block of
README.md and doc/*.md as it stands (the plugin's path made this build's)
must run and leave a view showing the volume; the property table of
doc/paraview.md must name every property of the CUDA Volume representation,
and no other, with its default; and "CUDA Volume" must pick
a colour array when chosen in Python (SetRepresentationType or the
Representation property), as ParaView does for its own "Volume"."""
import glob
import os
import re

from cvr_pvtest import arguments, check, finish, load_plugin, read_png, shown

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PAGES = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "doc", "*.md")))
README_PLUGIN = "build/lib/paraview-plugins/CudaVolumeMapper/CudaVolumeMapper.so"

args = arguments()
from paraview.simple import *  # noqa: E402,F401,F403


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


ok = True

# 1. the Python blocks, each in a fresh namespace
blocks = [b for page in PAGES for b in re.findall(r"```python\n(.*?)```", read(page), re.S)]
ok &= check(len(blocks) > 0, "the documentation has no Python block")
for number, block in enumerate(blocks):
    ok &= check(README_PLUGIN in block, "block %d loads no plugin from %s" % (number, README_PLUGIN))
    namespace = {}
    exec(compile(block.replace(README_PLUGIN, args.plugin), "Python block %d" % number, "exec"),
         namespace)
    view = GetActiveView()
    view.ViewSize = [300, 300]
    image = os.path.join(args.output, "TestCudaVolumeReadme-block%d.png" % number)
    SaveScreenshot(image, view)
    drawn = shown(read_png(image))
    print("block %d: %d of 90000 pixels drawn" % (number, drawn))
    ok &= check(drawn > 9000, "Python block %d leaves the volume undrawn" % number)
    for proxy in list(GetSources().values()):
        Delete(proxy)

# 2. the property table against the representation's properties and defaults
source = Wavelet()
rep = Show(source)
rep.SetRepresentationType("CUDA Volume")
ours = set(name for name in rep.ListProperties() if name.startswith("Cuda"))

plugin_page = read(os.path.join(ROOT, "doc", "paraview.md"))
table = plugin_page[plugin_page.index("| property | values | default | |"):]
rows = [line for line in table.splitlines()[2:]]
rows = rows[:next(i for i, line in enumerate(rows) if not line.startswith("|"))]
SPECIAL = {"none": [], '""': "", "all values": [-1e300, 1e300], "on": 1, "off": 0}


def expected(text):
    """A default as the table writes it: a number or numbers (254/255 too),
    on/off, a word for an empty or unbounded value, else an entry's text."""
    if text in SPECIAL:
        return SPECIAL[text]
    try:
        values = [float(eval(t, {})) if "/" in t else float(t) for t in text.split()]
    except (ValueError, SyntaxError, NameError):
        return text
    return values[0] if len(values) == 1 else values


def matches(value, want):
    if hasattr(value, "GetData"):  # an enumeration's property object: its entry's text
        value = value.GetData()
    if isinstance(want, str):
        return str(value) == want
    got = list(value) if isinstance(value, (list, tuple)) or hasattr(value, "__len__") \
        and not isinstance(value, str) else [value]
    want = want if isinstance(want, list) else [want]
    return len(got) == len(want) and all(abs(float(g) - w) <= 1e-6 * max(1.0, abs(w))
                                         for g, w in zip(got, want))


documented = set()
for row in rows:
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    names = re.findall(r"`(Cuda\w+)`", cells[0])
    defaults = [d.strip() for d in cells[2].split(";")]
    ok &= check(len(names) == len(defaults),
                "row %s: %d properties, %d defaults" % (cells[0], len(names), len(defaults)))
    for name, default in zip(names, defaults):
        documented.add(name)
        if name not in ours or default == "—":
            continue
        value = rep.GetPropertyValue(name)
        ok &= check(matches(value, expected(default)),
                    "%s: doc/paraview.md says %s, the property is %r" % (name, default, value))
ok &= check(ours - documented == set(), "not in doc/paraview.md's table: %s" % sorted(ours - documented))
ok &= check(documented - ours == set(), "not properties: %s" % sorted(documented - ours))
print("%d properties in the table, %d of the representation" % (len(documented), len(ours)))
Delete(source)

# 3. choosing CUDA Volume in Python colours by the data's array
for how in ("SetRepresentationType", "Representation property"):
    source = Wavelet()
    rep = Show(source)
    ok &= check(not rep.ColorArrayName[1], "Wavelet is coloured before CUDA Volume is chosen")
    if how == "SetRepresentationType":
        rep.SetRepresentationType("CUDA Volume")
    else:
        rep.Representation = "CUDA Volume"
    ok &= check(rep.ColorArrayName[1] == "RTData",
                "%s: CUDA Volume coloured by %r, not RTData" % (how, rep.ColorArrayName[1]))
    Delete(source)

finish(ok)

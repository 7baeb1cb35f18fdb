#!/usr/bin/env python3
"""executorch-run on every CUDA fixture where there is no CUDA device: a
non-zero exit (not a signal) and one line on stderr that names the missing
device. Skipped (77) on a machine with an NVIDIA device node.
Usage: test_cuda_no_device.py EXECUTORCH_RUN LD_LIBRARY_PATH FIXTURE_DIR..."""
import os
import subprocess
import sys

run, libpath, fixtures = sys.argv[1], sys.argv[2], sys.argv[3:]
if os.path.exists("/dev/nvidia0"):
    print("SKIP: this machine has an NVIDIA device")
    sys.exit(77)
if not fixtures:
    sys.exit("no fixture given")
env = dict(os.environ)
env["LD_LIBRARY_PATH"] = libpath + ":" + env.get("LD_LIBRARY_PATH", "")
bad = []
for fixture in fixtures:
    name = os.path.basename(fixture)
    cmd = [run, os.path.join(fixture, "model.pte"), "--ptd",
           os.path.join(fixture, "aoti_cuda_blob.ptd")]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    print("$", " ".join(cmd), "-> rc", p.returncode)
    print("stdout:", p.stdout)
    print("stderr:", p.stderr)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode <= 0:
        bad.append(f"{name}: exit status {p.returncode}: expected a non-zero exit, not a signal")
    if len(lines) != 1:
        bad.append(f"{name}: {len(lines)} stderr lines, expected 1")
    elif "no CUDA device" not in lines[0]:
        bad.append(f"{name}: the error line does not name the missing CUDA device")
for b in bad:
    print("FAIL:", b)
print(f"{len(fixtures)} fixtures, {len(bad)} failures")
sys.exit(1 if bad else 0)

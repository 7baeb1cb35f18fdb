#!/usr/bin/env python3
"""executorch-run on a CUDA fixture where there is no CUDA device: a non-zero
exit (not a signal) and one line on stderr that names the missing device.
Skipped (77) on a machine with an NVIDIA device node.
Usage: test_cuda_no_device.py EXECUTORCH_RUN FIXTURE_DIR LD_LIBRARY_PATH"""
import os
import subprocess
import sys

run, fixture, libpath = sys.argv[1:4]
if os.path.exists("/dev/nvidia0"):
    print("SKIP: this machine has an NVIDIA device")
    sys.exit(77)
env = dict(os.environ)
env["LD_LIBRARY_PATH"] = libpath + ":" + env.get("LD_LIBRARY_PATH", "")
cmd = [run, os.path.join(fixture, "model.pte"), "--ptd",
       os.path.join(fixture, "aoti_cuda_blob.ptd")]
p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
print("$", " ".join(cmd), "-> rc", p.returncode)
print("stdout:", p.stdout)
print("stderr:", p.stderr)
lines = [l for l in p.stderr.splitlines() if l.strip()]
bad = []
if p.returncode <= 0:
    bad.append(f"exit status {p.returncode}: expected a non-zero exit, not a signal")
if len(lines) != 1:
    bad.append(f"{len(lines)} stderr lines, expected 1")
elif "no CUDA device" not in lines[0]:
    bad.append("the error line does not name the missing CUDA device")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)

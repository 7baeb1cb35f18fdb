#!/usr/bin/env python3
"""Runs the built executorch-run the way a user would; one case per call.

Environment (set by tests/tools/meson.build): EXECUTORCH_RUN (the tool),
EXECUTORCH_DEMO_PTE (the demo program in the build tree), CONFORMANCE_DIR.
"""

import json
import os
import re
import resource
import struct
import subprocess
import sys
import tempfile
import time

TOOL = os.environ["EXECUTORCH_RUN"]
CONF = os.environ["CONFORMANCE_DIR"]
ADD = os.path.join(CONF, "add.pte")
LINEAR = os.path.join(CONF, "linear_constant_buffer.pte")
ERROR_LINE = re.compile(r"^executorch-run: error: Error::[A-Za-z]+: .+$")


class Failed(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failed(msg)


def run(*args, env=None):
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    p = subprocess.run([TOOL, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=full_env, timeout=60)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    print(f"$ executorch-run {' '.join(args)}\n-> rc={p.returncode}")
    if out:
        print("stdout:\n" + out)
    if err:
        print("stderr:\n" + err)
    return p.returncode, out, err


def ok(*args, env=None):
    rc, out, err = run(*args, env=env)
    check(rc == 0, f"exit status {rc}, expected 0")
    return out


def ok_json(*args, env=None):
    out = ok(*args, "--json", env=env)
    # Exactly what `python3 -m json.tool` accepts.
    p = subprocess.run([sys.executable, "-m", "json.tool"], input=out.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(p.returncode == 0, "json.tool rejected the output: " + p.stderr.decode())
    check(out.count("\n") == 1, "--json must print one line")
    return json.loads(out)


def fails(*args, env=None, contains=(), code=None, error=None):
    rc, out, err = run(*args, env=env)
    check(rc != 0, "expected a failure, got exit status 0")
    check(0 < rc < 128, f"exit status {rc}: killed by a signal or out of range")
    lines = err.splitlines()
    check(len(lines) == 1, f"expected exactly one stderr line, got {len(lines)}")
    check(ERROR_LINE.match(lines[0]), "stderr line is not "
          "'executorch-run: error: Error::<Name>: <message>'")
    if error is not None:
        check(lines[0].startswith(f"executorch-run: error: Error::{error}:"),
              f"expected Error::{error}")
    for c in contains:
        check(c in lines[0], f"error line should mention {c!r}")
    if code is not None:
        check(rc == code, f"exit status {rc}, expected {code}")
    return lines[0]


TENSOR_LINE = re.compile(r"^output (\d+): (\w+) tensor\(sizes=\[([\d, ]*)\], \[(.*)\]\)$")


def tensor_line(out, index=0):
    """(dtype, sizes, values) of output `index` in text mode, printed by the
    library's print_evalue: `output 0: Float tensor(sizes=[2], [1., 2.])`."""
    for line in out.splitlines():
        m = TENSOR_LINE.match(line)
        if m and int(m.group(1)) == index:
            sizes = [int(v) for v in m.group(3).split(",") if v.strip()]
            return m.group(2), sizes, [v.strip() for v in m.group(4).split(",")]
    raise Failed(f"no tensor line for output {index}")


def values_of(out, index=0):
    """The values printed for output `index` in text mode."""
    return tensor_line(out, index)[2]


def numbers(values):
    return [float(v) for v in values]


def close(a, b, tol=1e-6):
    return abs(float(a) - float(b)) <= tol * max(1.0, abs(float(b)))


# --- cases ------------------------------------------------------------------

def case_help():
    out = ok("--help")
    for opt in ("--ptd", "--method", "--input", "--iterations", "--json",
                "--info", "--backends", "--no-plugins", "--version"):
        check(opt in out, f"--help should mention {opt}")


def case_version():
    out = ok("--version")
    check(re.match(r"^executorch-run \d+\.\d+\.\d+ \(libexecutorch \S+\)$", out.strip()),
          "bad --version output")


def case_add():
    out = ok(ADD, "--input", "3.5", "--input", "-1.25")
    check(values_of(out) == ["2.25"], "output 0 should be [2.25]")
    check(tensor_line(out)[:2] == ("Float", [1]), "dtype and shape should be printed")
    check(re.search(r"timing: .*min .* us, median .* us", out), "no timing line")


def case_add_json():
    j = ok_json(ADD, "--input", "3.5", "--input=-1.25")
    check(j["method"] == "forward", "method")
    check(len(j["outputs"]) == 1, "one output")
    o = j["outputs"][0]
    check(o["dtype"] == "Float", "dtype")
    check(o["shape"] == [1], "shape")
    check(o["values"] == [2.25], "values")
    t = j["timing_us"]
    check(t["iterations"] == 1 and t["min"] >= 0 and t["median"] >= t["min"],
          "timing_us")


def case_add_iterations():
    j = ok_json(ADD, "--input", "1", "--input", "1", "--iterations", "7")
    check(j["outputs"][0]["values"] == [2.0], "1 + 1 should be 2")
    check(j["timing_us"]["iterations"] == 7, "iterations")
    check(j["timing_us"]["min"] <= j["timing_us"]["median"], "min <= median")


def case_single_input_all():
    j = ok_json(ADD, "--input", "2")
    check(j["outputs"][0]["values"] == [4.0], "a single --input applies to all")
    j = ok_json(ADD)
    check(j["outputs"][0]["values"] == [2.0], "the default input is ones")
    j = ok_json(ADD, "--input", "zeros")
    check(j["outputs"][0]["values"] == [0.0], "zeros")


def case_random_input():
    a = ok_json(ADD, "--input", "random:3")
    b = ok_json(ADD, "--input", "random:3")
    c = ok_json(ADD, "--input", "random")
    check(a["outputs"][0]["values"] == b["outputs"][0]["values"],
          "the same seed must give the same data")
    v = a["outputs"][0]["values"][0]
    check(0.0 <= v < 2.0, "random floats are in [0, 1)")
    check(len(c["outputs"][0]["values"]) == 1, "random without a seed")


def case_file_input():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "x.bin")
        with open(f, "wb") as fh:
            fh.write(struct.pack("<f", 1.5))
        j = ok_json(ADD, "--input", "@" + f, "--input", "2")
        check(j["outputs"][0]["values"] == [3.5], "@FILE input")


def case_file_input_size():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "x.bin")
        with open(f, "wb") as fh:
            fh.write(struct.pack("<ff", 1.5, 2.5))
        fails(ADD, "--input", "@" + f, contains=(f, "bytes"))
        fails(ADD, "--input", "@" + os.path.join(d, "missing.bin"),
              contains=("missing.bin",))


def case_missing_file():
    fails("/nonexistent/model.pte", contains=("/nonexistent/model.pte",),
          error="AccessFailed")


def case_not_a_pte():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "random.pte")
        with open(f, "wb") as fh:
            fh.write(os.urandom(4096))
        fails(f, contains=(f,))
        fails("--info", f, contains=(f,))


def case_empty_file():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "empty.pte")
        open(f, "wb").close()
        fails(f, contains=(f,))


def case_directory():
    with tempfile.TemporaryDirectory() as d:
        fails(d, contains=(d,))


def case_wrong_input_count():
    fails(ADD, "--input", "1", "--input", "2", "--input", "3",
          contains=("3", "2 input"), error="InvalidArgument")


def case_unknown_method():
    fails(ADD, "--method", "nope", contains=("nope",))


def case_list_length_mismatch():
    fails(ADD, "--input", "1,2,3", contains=("3 value",), error="InvalidArgument")


def case_bad_spec():
    fails(ADD, "--input", "banana", contains=("banana",), error="InvalidArgument")


def case_bad_iterations():
    fails(ADD, "--iterations", "0", contains=("--iterations",))


def case_unknown_option():
    fails(ADD, "--frobnicate", contains=("frobnicate",))


def case_backend_option():
    # Options for a backend the program does not use are carried and ignored.
    out = ok(ADD, "--input", "2", "--input", "3", "--backend-option", "CudaBackend:use_cuda_graph=true",
             "--backend-option", "OtherBackend:threads=4", "--backend-option", "OtherBackend:mode=x")
    check("5" in out, "add ran with backend options: " + out)
    for bad in ("nocolon", ":k=v", "B:=v", "B:k", "B:" + "k" * 64 + "=1"):
        fails(ADD, "--backend-option", bad, contains=("--backend-option",),
              error="InvalidArgument")


def case_missing_ptd():
    fails(ADD, "--ptd", "/nonexistent/weights.ptd",
          contains=("/nonexistent/weights.ptd",))


def case_operator_missing():
    with tempfile.TemporaryDirectory() as d:
        with open(os.environ["EXECUTORCH_DEMO_PTE"], "rb") as fh:
            data = fh.read()
        check(b"aten::mul" in data, "the demo program calls aten::mul")
        f = os.path.join(d, "badop.pte")
        with open(f, "wb") as fh:
            fh.write(data.replace(b"aten::mul", b"aten::mux"))
        fails(f, contains=("aten::mux.out", f), error="OperatorMissing")
        out = ok("--info", f)
        check("aten::mux.out" in out, "--info lists operators it cannot run")


def case_truncated():
    with open(ADD, "rb") as fh:
        data = fh.read()
    with tempfile.TemporaryDirectory() as d:
        for n in (0, 7, 64, len(data) // 2, len(data) - 1):
            f = os.path.join(d, f"cut{n}.pte")
            with open(f, "wb") as fh:
                fh.write(data[:n])
            fails(f, contains=(f,))


def case_info():
    out = ok("--info", ADD)
    for s in ("forward", "aten::add.out", "input 0: Tensor Float [1]",
              "input 1: Tensor Float [1]", "output 0: Tensor Float [1]",
              "delegates: 0"):
        check(s in out, f"--info should show {s!r}")
    out = ok("--info", LINEAR)
    check("aten::mul.out" in out and "[2, 2]" in out, "--info on the linear program")


def kernel_of(out, op):
    """The kernel --info names for op ("aten::add.out: optimized")."""
    for line in out.splitlines():
        line = line.strip()
        if line.startswith(op + ": "):
            return line[len(op) + 2:]
    raise Failed(f"--info has no line for {op}")


def case_info_kernels():
    optimized = os.environ.get("OPTIMIZED_KERNELS") == "1"
    out = ok("--info", ADD)
    want = "optimized" if optimized else "portable"
    check(kernel_of(out, "aten::add.out") == want, f"add.out should be served by {want}")
    out = ok("--info", ADD, env={"EXECUTORCH_KERNELS": "portable"})
    check(kernel_of(out, "aten::add.out") == "portable",
          "EXECUTORCH_KERNELS=portable serves the portable kernel")
    rc, out, err = run("--verbose", "--info", ADD, env={"EXECUTORCH_KERNELS": "fastest"})
    check(rc == 0 and "EXECUTORCH_KERNELS" in err, "an unknown EXECUTORCH_KERNELS is reported")
    check(kernel_of(out, "aten::add.out") == want, "and ignored")


def case_info_demo():
    out = ok("--info")
    for s in ("forward", "aten::mul.out", "aten::add.out", "Float [2, 2]"):
        check(s in out, f"--info on the demo should show {s!r}")


def case_backends():
    out = ok("--backends")
    check(out.strip() != "", "--backends prints something")
    for line in out.splitlines():
        check(line == "no backends registered" or
              re.match(r"^\S+\s+(available|not available)$", line),
              f"unexpected --backends line {line!r}")
    ok("--backends", "--no-plugins")
    fails("--backends", ADD)


def case_backend_plugins():
    """The CUDA backend found as a plugin through EXECUTORCH_BACKEND_PATH
    (meson sets it to the build tree's cuda-backend directory), registered
    once; with the path emptied and no loader path, nothing is found."""
    plugin_dir = os.environ["EXECUTORCH_BACKEND_PATH"]
    rc, out, err = run("--backends", "--verbose")
    check(rc == 0, f"exit status {rc}")
    check("1 backend plugin(s) loaded" in err, "the plugin in EXECUTORCH_BACKEND_PATH was not loaded")
    check("did not load" not in err and "loaded libexecutorch_cuda_backend" not in err,
          "the soname fallback ran although the plugin provided the backend")
    check([l.split()[0] for l in out.splitlines()].count("CudaBackend") == 1,
          "CudaBackend must be listed exactly once")
    rc, out, err = run("--backends", "--verbose",
                       env={"EXECUTORCH_BACKEND_PATH": ""})
    check(rc == 0, f"exit status {rc}")
    check("0 backend plugin(s) loaded" in err, "no plugin expected without a path")
    check("CudaBackend" not in out, f"CudaBackend listed without a plugin ({plugin_dir} unset)")
    check("did not load libexecutorch_cuda_backend.so.1 (Error::NotFound)" in err,
          f"the soname fallback should say why it found nothing: {err!r}")


def case_backends_json():
    j = ok_json("--backends")
    check(isinstance(j["backends"], list), "backends list")
    for b in j["backends"]:
        check(isinstance(b["name"], str) and isinstance(b["available"], bool),
              "backend entries")


def case_demo():
    out = ok()
    check(numbers(values_of(out)) == [3, 3, 3, 3], "demo: ones * 2 + ones = 3")
    check(tensor_line(out)[:2] == ("Float", [2, 2]), "demo output dtype and shape")
    out = ok("--input", "1,2,3,4", "--input", "0.5,0.5,0.5,0.5")
    check(values_of(out) == ["2.5", "4.5", "6.5", "8.5"], "demo: x * 2 + y")


def case_demo_json():
    j = ok_json("--input", "1,2,3,4", "--input", "zeros", "--iterations", "3")
    check(j["outputs"][0]["shape"] == [2, 2], "demo shape")
    check(j["outputs"][0]["values"] == [2.0, 4.0, 6.0, 8.0], "demo values")
    check(j["timing_us"]["iterations"] == 3, "iterations")


def case_demo_missing():
    fails(env={"EXECUTORCH_DEMO_PTE": "/nonexistent/demo.pte"},
          contains=("/nonexistent/demo.pte",), error="AccessFailed")


def case_linear_constant_buffer():
    j = ok_json(LINEAR, "--input", "1,2,3,4")
    check(j["outputs"][0]["shape"] == [2, 2], "shape")
    check(j["outputs"][0]["values"] == [5.0, 8.0, 11.0, 14.0], "3x + 2")


def case_ptd():
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "external.pte")
        w = os.path.join(d, "w.ptd")
        b = os.path.join(d, "b.ptd")
        j = ok_json(pte, "--ptd", w, "--ptd", b)
        check(j["outputs"][0]["values"] == [12.0, 23.0, 34.0, 45.0],
              "x + w + b with the weights from two .ptd files")
        j = ok_json(pte, "--ptd", b, "--ptd", w, "--input", "zeros")
        check(j["outputs"][0]["values"] == [11.0, 22.0, 33.0, 44.0],
              "the order of --ptd files does not matter for distinct keys")
        fails(pte)
        fails(pte, "--ptd", w)
        fails(pte, "--ptd", w, "--ptd", ADD, contains=(ADD,))
        fails(pte, "--ptd", os.path.join(d, "missing.ptd"), contains=("missing.ptd",))


def fixtures(d):
    subprocess.run([os.environ["MAKE_PTD_FIXTURE"], d], check=True)
    return d


def case_delegate():
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "delegate.pte")
        out = ok("--info", pte)
        check("NoSuchBackend: not registered" in out, "--info shows the backend")
        fails(pte, contains=("NoSuchBackend",))


def case_native_code():
    """--info says which delegates carry native code; --refuse-native-code
    and EXECUTORCH_REFUSE_NATIVE_CODE refuse them (NotSupported, whether or
    not the backend is installed) and leave other programs alone."""
    with tempfile.TemporaryDirectory() as d:
        fixtures(d)
        cuda = os.path.join(d, "cuda_delegate.pte")
        other = os.path.join(d, "delegate.pte")
        yes = ("      native code: yes (CudaBackend runs a shared object from the "
               "program when it is loaded)")
        out = ok("--info", cuda)
        check(yes in out.splitlines(), "--info shows the native-code line")
        out = ok("--info", "--refuse-native-code", cuda)
        check(yes + ", refused here" in out.splitlines(), "--info says it is refused")
        out = ok("--info", other)
        check("      native code: no" in out.splitlines(), "NoSuchBackend runs no native code")
        for extra, env in ((["--refuse-native-code"], None),
                           ([], {"EXECUTORCH_REFUSE_NATIVE_CODE": "1"})):
            fails(cuda, *extra, env=env, error="NotSupported",
                  contains=("CudaBackend", "native code"))
            # A program without native code is not refused (it fails later,
            # for its missing backend).
            fails(other, *extra, env=env, error="NotFound", contains=("NoSuchBackend",))
            ok(ADD, "--input", "2", "--input", "3", *extra, env=env)
        check("--refuse-native-code" in ok("--help"), "--help lists the flag")


def case_scalar_input():
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "scalar.pte")
        out = ok("--info", pte)
        check("input 1: Int" in out, "--info shows the Int input")
        j = ok_json(pte)
        check(j["outputs"][0]["values"] == [3.0, 3.0], "x + 2 * x with the traced n")
        j = ok_json(pte, "--input", "1,2", "--input", "ones")
        check(j["outputs"][0]["values"] == [3.0, 6.0], "spec for a non-tensor is ignored")


def case_long_output():
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "big.pte")
        spec = ",".join(str(i) for i in range(100))
        out = ok(pte, "--input", spec)
        dtype, sizes, vals = tensor_line(out)
        check(sizes == [100] and "..." in vals, "long outputs are summarized")
        check(numbers(vals[:8]) == [2.0 * i for i in range(8)] and vals[8] == "..." and
              numbers(vals[9:]) == [2.0 * i for i in range(92, 100)], "first and last 8")
        vals = values_of(ok(pte, "--input", spec, "--all-values"))
        check(numbers(vals) == [2.0 * i for i in range(100)], "--all-values prints all")
        j = ok_json(pte, "--input", spec)
        check(j["outputs"][0]["values"] == [2.0 * i for i in range(100)],
              "--json prints every value")


def timed_ok(*args, env=None, seconds=20):
    start = time.monotonic()
    out = ok(*args, env=env)
    check(time.monotonic() - start < seconds, f"took more than {seconds} s")
    return out


def case_huge_output():
    # A 1 GiB planned output (2^30 elements) nothing writes: printed as a
    # summary, reading only what is shown, in well under the time a full
    # walk would take; its pages are never committed.
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "huge.pte")
        out = timed_ok(pte)
        dtype, sizes, vals = tensor_line(out)
        check(dtype == "Byte" and sizes == [32768, 32768], "dtype and sizes")
        check(len(vals) == 17 and vals[8] == "..." and vals[0] == "0", "first/last 8")
        args = (pte, "--json")
        j = json.loads(timed_ok(*args))
        o = j["outputs"][0]
        check(len(o["values"]) == 16 and o["elided"] == (1 << 30) - 16, "JSON summary")


def case_memory_limit():
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "huge.pte")
        fails(pte, "--memory-limit", "512M", error="MemoryAllocationFailed",
              contains=("planned buffer 0", "1073741824", "536870912"))
        fails(pte, env={"EXECUTORCH_MEMORY_LIMIT": "512M"},
              error="MemoryAllocationFailed", contains=("536870912",))
        # 1 GiB of declared input is refused before it is allocated or filled.
        fails(pte, "--method", "big_input", "--memory-limit", "1023M",
              error="MemoryAllocationFailed", contains=("input 0", "1073741824"))
        fails(pte, "--memory-limit", "lots", code=2, contains=("--memory-limit",))
        ok(pte, "--memory-limit", "2G")


def case_unplanned():
    # A method whose kernel writes a tensor nothing gives data is refused at
    # load, naming the value, before its 1 GiB input is allocated or filled.
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "unplanned.pte")
        start = time.monotonic()
        fails(pte, "--method", "dataless", "--memory-limit", "8G", error="InvalidProgram",
              contains=("dataless", "value 2", "aten::add.out"))
        check(time.monotonic() - start < 5, "the refusal took seconds")
        rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        check(rss_kib < 256 * 1024, f"the refusal used {rss_kib} KiB")
        # An unplanned output gets a buffer from the tool.
        out = ok(pte, "--method", "add", "--input", "1,2,3,4")
        check(numbers(values_of(out)) == [2.0, 4.0, 6.0, 8.0], "x + x")
        # Outputs are allocated before inputs: over the limit, the input is
        # refused before it is filled.
        fails(pte, "--method", "big_add", "--memory-limit", "1536M",
              error="MemoryAllocationFailed", contains=("input 0",))


def case_unplanned_fill():
    # A 1 GiB unplanned input is allocated and filled once, in place: the
    # run stays near 1 GiB, not twice it.
    with tempfile.TemporaryDirectory() as d:
        pte = os.path.join(fixtures(d), "unplanned.pte")
        ok(pte, "--method", "big_add", "--memory-limit", "3G")
        rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        check(rss_kib < (2048 + 256) * 1024, f"input and output of 1 GiB used {rss_kib} KiB")


def case_default_memory_limit():
    # Without --memory-limit or $EXECUTORCH_MEMORY_LIMIT the tool allows at
    # most 4 GiB: an 8 GiB planned buffer is refused.
    env = {"EXECUTORCH_MEMORY_LIMIT": ""}
    with tempfile.TemporaryDirectory() as d:
        fixtures(d)
        fails(os.path.join(d, "huge8g.pte"), env=env, error="MemoryAllocationFailed",
              contains=("planned buffer 0", "8589934592"))
        # 1 GiB is within the default on any host with 2 GiB or more.
        ok(os.path.join(d, "huge.pte"), env=env)
    rc, out, _ = run("--help")
    # Newer CLI11 wraps the help text: compare with the whitespace collapsed.
    check(rc == 0 and "at most 4G" in " ".join(out.split()), "--help gives the default")
    fails(ADD, env={"EXECUTORCH_MEMORY_LIMIT": "lots"}, code=2,
          contains=("EXECUTORCH_MEMORY_LIMIT",))


def case_threads():
    # The pool's size must not change what a program computes.
    outs = [values_of(ok(ADD, "--input", "2", "--input", "3", "--threads", n)) for n in ("1", "2")]
    check(outs[0] == outs[1], f"--threads 1 and 2 disagree: {outs}")
    check(numbers(outs[0]) == [5.0], f"add gave {outs[0]}")
    for bad in ("0", "x", "-1", "2x", "", "4097"):
        fails(ADD, "--threads", bad, code=2, error="InvalidArgument", contains=("--threads",))
    ok(ADD, env={"EXECUTORCH_NUM_THREADS": "1"})
    ok(ADD, env={"EXECUTORCH_NUM_THREADS": "bogus"})  # ignored: the default size


def main():
    if len(sys.argv) != 2 or not hasattr(sys.modules[__name__], "case_" + sys.argv[1]):
        print("usage: test_executorch_run.py CASE", file=sys.stderr)
        return 2
    try:
        getattr(sys.modules[__name__], "case_" + sys.argv[1])()
    except Failed as e:
        print(f"FAIL: {e}")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

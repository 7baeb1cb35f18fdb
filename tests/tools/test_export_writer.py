#!/usr/bin/env python3
"""The .pte/.ptd writing half of tools/export/export_cuda.py, without torch:
fake .so/weights bytes go through write_model_files in the host and device
layouts (one and two partitions); flatc decodes each .pte strictly against
runtime/schema/program.fbs and the JSON must show the layout; executorch-run
--info (when given) must read it. Usage: test_export_writer.py SRC_ROOT [FLATC]
[EXECUTORCH_RUN]"""
import json
import os
import subprocess
import sys
import tempfile

SRC = sys.argv[1]
FLATC = sys.argv[2] if len(sys.argv) > 2 else "flatc"
RUN = sys.argv[3] if len(sys.argv) > 3 else None
sys.path.insert(0, os.path.join(SRC, "tools", "export"))
import export_cuda as ex  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def decode(pte):
    d = os.path.dirname(pte)
    out = subprocess.run([FLATC, "--json", "--strict-json", "--raw-binary", "-o", d,
                          os.path.join(SRC, "runtime", "schema", "program.fbs"), "--", pte],
                         capture_output=True, text=True)
    check(out.returncode == 0, f"flatc failed on {pte}: {out.stderr}")
    with open(os.path.splitext(pte)[0] + ".json") as f:
        return json.load(f)


def case(tmp, layout, n_parts, keys="1.4"):
    mdir = os.path.join(tmp, f"{layout}{n_parts}{keys}")
    f32 = "float32"
    shapes = [[8, 64], [8, 128], [8, 32]][: n_parts + 1] if n_parts == 2 else [[8, 64], [8, 32]]
    parts = []
    for k in range(n_parts):
        so = b"\x7fELF fake so %d " % k + bytes(range(256)) * (k + 3)
        blob = b"weights %d" % k * 50
        parts.append((so, blob, [(f32, shapes[k])], [(f32, shapes[k + 1])]))
    keys_out = ex.write_model_files(mdir, "forward", parts, [(f32, shapes[0])],
                                    [(f32, shapes[-1])], layout, keys)
    j = decode(os.path.join(mdir, "model.pte"))
    plan = j["execution_plan"][0]
    check(plan["name"] == "forward", "method name")
    check(len(plan["delegates"]) == n_parts, f"{layout}: {n_parts} delegates")
    instrs = plan["chains"][0]["instructions"]
    kinds = [i["instr_args_type"] for i in instrs]
    for k, d in enumerate(plan["delegates"]):
        check(d["id"] == "CudaBackend", "delegate id")
        specs = {s["key"]: bytes(s["value"]).decode() for s in d["compile_specs"]}
        check(specs == {"method_name": "forward", "target_device": "cuda:0"}, "compile specs")
        processed = bytes(j["backend_delegate_data"][d["processed"]["index"]]["data"])
        if keys == "1.4":
            check(processed.decode() == keys_out[k][0] + "\n" + keys_out[k][1],
                  "processed = so_key\\nweights_key")
    named = [n["key"] for n in j["named_data"]]
    check(named == [k[0] for k in keys_out], f"named data holds the .so keys: {named}")
    values = plan["values"]
    in_v, out_v = plan["inputs"][0], plan["outputs"][0]

    def dev(vi):
        t = values[vi]["val"]
        return t.get("extra_tensor_info", {}).get("device_type", "CPU")

    def mem(vi):
        return values[vi]["val"]["allocation_info"]["memory_id"]
    check(dev(in_v) == "CPU" and dev(out_v) == "CPU" and mem(in_v) == 1 and mem(out_v) == 1,
          f"{layout}: method I/O is on the host in buffer 1")
    if layout == "device":
        check(plan.get("non_const_buffer_device") == [{"buffer_idx": 2, "device_type": "CUDA"}],
              f"non_const_buffer_device: {plan.get('non_const_buffer_device')}")
        check(len(plan["non_const_buffer_sizes"]) == 3, "two planned buffers")
        check(kinds == ["KernelCall"] + ["DelegateCall"] * n_parts + ["KernelCall"],
              f"h2d, delegates, d2h: {kinds}")
        ops = [o["name"] + "." + o["overload"] for o in plan["operators"]]
        check(ops == ["et_copy::_h2d_copy.out", "et_copy::_d2h_copy.out"], f"operators {ops}")
        h2d, d2h = instrs[0]["instr_args"], instrs[-1]["instr_args"]
        check(ops[h2d["op_index"]] == "et_copy::_h2d_copy.out" and h2d["args"][0] == in_v,
              "h2d reads the method input")
        check(ops[d2h["op_index"]] == "et_copy::_d2h_copy.out" and d2h["args"][1] == out_v,
              "d2h writes the method output")
        for ins in instrs[1:-1]:
            for a in ins["instr_args"]["args"]:
                check(dev(a) == "CUDA" and mem(a) == 2, f"delegate arg {a} on CUDA buffer 2")
        check(h2d["args"][1] == instrs[1]["instr_args"]["args"][0], "h2d feeds delegate 0")
    else:
        check("non_const_buffer_device" not in plan, "host layout: no device entries")
        check(kinds == ["DelegateCall"] * n_parts and not plan.get("operators"),
              f"host layout: delegates only: {kinds}")
        check(instrs[0]["instr_args"]["args"][0] == in_v, "delegate 0 reads the input")
    if n_parts == 2:
        a0, a1 = instrs[-3 if layout == "device" else 0]["instr_args"]["args"], \
            instrs[-2 if layout == "device" else 1]["instr_args"]["args"]
        check(a0[1] == a1[0], "partition 0 output feeds partition 1")
    ptd = open(os.path.join(mdir, "aoti_cuda_blob.ptd"), "rb").read()
    check(ptd[4:8] == b"FT01" and ptd[8:12] == b"FH01", "ptd header")
    for _, wk in keys_out:
        check(wk.encode() in ptd, f"weights key {wk} in the .ptd")
    if RUN:
        r = subprocess.run([RUN, "--info", os.path.join(mdir, "model.pte")],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 0 and "CudaBackend" in r.stdout,
              f"executorch-run --info: rc {r.returncode} {r.stdout[-400:]} {r.stderr[-400:]}")
    print(f"ok {layout} layout, {n_parts} partition(s), keys {keys}")


with tempfile.TemporaryDirectory() as tmp:
    for layout in ("device", "host"):
        for n in (1, 2):
            case(tmp, layout, n)
    case(tmp, "host", 1, "legacy")
    try:
        ex.program_table("forward", [{"processed": b"", "compile_specs": [],
                                      "inputs": [("float32", [2])],
                                      "outputs": [("float32", [3])]},
                                     {"processed": b"", "compile_specs": [],
                                      "inputs": [("float32", [4])],
                                      "outputs": [("float32", [3])]}])
        check(False, "mismatched partitions accepted")
    except ValueError:
        pass
print("PASSED" if failures == 0 else f"FAILED ({failures})")
sys.exit(1 if failures else 0)

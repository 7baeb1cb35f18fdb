#!/usr/bin/env python3
"""Generation benchmark on the GPU host: prefill and decode tokens/s of our
executorch-generate against PyTorch eager and torch.compile on the same
module (the kv_decoder of tools/export/make_corpus.py, rebuilt with the same
seed, bf16 on CUDA), with the same prompt and greedy decoding.

Interleaved ABAB: every round runs ours, then eager, then compile, each with
--warmup untimed generations and --runs timed ones; a round's value is the
median of its runs; reported are the median of the round values and their
min-max spread, and ours/PyTorch ratios paired per round.

  generate_bench.py --ours EXECUTORCH_GENERATE --fixture DIR
                    [--prompt-len 32] [--new-tokens 32] [--rounds 7]
                    [--warmup 3] [--runs 10] [--backend-option B:K=V ...]
                    [--ours-arg ARG ...] [--no-compile] [--json OUT.json]

DIR holds model.pte and aoti_cuda_blob.ptd (make_corpus.py --flow cuda
--only kv_decoder). What is timed, for both sides: prefill = from the call
with the prompt to the first generated token on the host; decode = each
later token, one method call and its argmax, to the token on the host.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools", "export"))


def prompt_ids(n):
    """A fixed prompt of n token ids below the kv_decoder's vocabulary (256)."""
    return [(i * 37 + 11) % 256 for i in range(n)]


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


# ------------------------------------------------------------------ ours
def run_ours(a, prompt):
    cmd = [a.ours, os.path.join(a.fixture, "model.pte"),
           "--prompt", ",".join(map(str, prompt)), "-n", str(a.new_tokens),
           "--warmup", str(a.warmup), "--runs", str(a.runs), "--json"]
    for ptd in sorted(f for f in os.listdir(a.fixture) if f.endswith(".ptd")):
        cmd += ["--ptd", os.path.join(a.fixture, ptd)]
    for opt in a.backend_option:
        cmd += ["--backend-option", opt]
    cmd += a.ours_arg
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout).strip().splitlines()[-1:]}
    j = json.loads(p.stdout)
    return {"prefill": [s["prefill_tokens_per_second"] for s in j["stats"]],
            "decode": [s["decode_tokens_per_second"] for s in j["stats"]],
            "tokens": j["tokens"]}


# --------------------------------------------------------------- PyTorch
class TorchSide:
    """Greedy generation with the module, eager or compiled."""

    def __init__(self, compiled):
        import torch
        import make_corpus
        self.torch = torch
        torch.backends.cuda.matmul.allow_tf32 = False
        model, _, _ = make_corpus.kv_methods("cuda")
        self.model = torch.compile(model) if compiled else model

    def generate(self, prompt, n):
        torch = self.torch
        sync = torch.cuda.synchronize
        with torch.no_grad():
            tokens = torch.tensor([prompt], dtype=torch.long, device="cuda")
            pos = torch.arange(len(prompt), device="cuda")
            sync()
            t0 = time.perf_counter()
            logits = self.model(tokens, pos)
            tok = int(logits[0, -1].argmax())
            prefill = time.perf_counter() - t0
            out, decode, p = [tok], 0.0, len(prompt)
            for _ in range(n - 1):
                t0 = time.perf_counter()
                logits = self.model(torch.tensor([[tok]], device="cuda"),
                                    torch.tensor([p], device="cuda"))
                tok = int(logits[0, -1].argmax())
                decode += time.perf_counter() - t0
                out.append(tok)
                p += 1
        return len(prompt) / prefill, (n - 1) / decode if n > 1 else 0.0, out

    def measure(self, a, prompt):
        try:
            for _ in range(a.warmup):
                self.generate(prompt, a.new_tokens)
            runs = [self.generate(prompt, a.new_tokens) for _ in range(a.runs)]
        except Exception as e:  # noqa: BLE001 - reported as this side's result
            return {"error": [f"{type(e).__name__}: {e}"[:300]]}
        return {"prefill": [r[0] for r in runs], "decode": [r[1] for r in runs],
                "tokens": runs[-1][2]}


# ------------------------------------------------------------------ main
def summarize(rounds, sides):
    out = {}
    for side in sides:
        ok = [r[side] for r in rounds if "error" not in r[side]]
        if not ok:
            out[side] = {"error": rounds[-1][side]["error"]}
            continue
        out[side] = {k: spread([statistics.median(r[k]) for r in ok])
                     for k in ("prefill", "decode")}
    for other in sides[1:]:
        pairs = [r for r in rounds if "error" not in r["ours"] and "error" not in r[other]]
        if pairs:
            out[f"ours/{other}"] = {
                k: spread([statistics.median(r["ours"][k]) / statistics.median(r[other][k])
                           for r in pairs]) for k in ("prefill", "decode")}
    return out


def print_table(summary, a):
    print(f"\nkv_decoder (bf16), prompt {a.prompt_len} tokens, {a.new_tokens} new tokens, "
          f"{a.rounds} rounds x {a.runs} runs (median [min-max] of round medians; "
          f"ours/X: ratio of tokens/s paired per round, above 1 = ours faster)")
    print(f"{'':18}{'prefill tokens/s':>34}{'decode tokens/s':>34}")
    for side, v in summary.items():
        if "error" in v:
            print(f"{side:18}error: {' '.join(v['error'])}")
            continue
        cells = [f"{v[k]['median']:.4g} [{v[k]['min']:.4g}-{v[k]['max']:.4g}]"
                 for k in ("prefill", "decode")]
        print(f"{side:18}{cells[0]:>34}{cells[1]:>34}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True, help="the executorch-generate binary")
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--prompt-len", type=int, default=32)
    ap.add_argument("--new-tokens", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--backend-option", action="append", default=[])
    ap.add_argument("--ours-arg", action="append", default=[],
                    help="an extra argument for executorch-generate (e.g. "
                         "--ours-arg=--prefill-method --ours-arg=decode)")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    if not 2 <= a.prompt_len <= 63 or a.prompt_len + a.new_tokens > 64:
        sys.exit("kv_decoder: prompt 2..63 tokens and prompt + new tokens <= 64")
    prompt = prompt_ids(a.prompt_len)
    sides = {"eager": TorchSide(False)}
    if not a.no_compile:
        sides["compile"] = TorchSide(True)
    rounds = []
    for r in range(a.rounds):
        row = {"ours": run_ours(a, prompt)}
        for name, side in sides.items():
            row[name] = side.measure(a, prompt)
        rounds.append(row)
        print(f"round {r + 1}: " + ", ".join(
            f"{k} " + ("error" if "error" in v else
                       f"{statistics.median(v['prefill']):.0f}/{statistics.median(v['decode']):.0f}")
            for k, v in row.items()) + " (prefill/decode tokens/s)", flush=True)
    names = ["ours"] + list(sides)
    summary = summarize(rounds, names)
    print_table(summary, a)
    last = rounds[-1]
    same = {k: last[k].get("tokens") == last["ours"].get("tokens") for k in sides}
    print("greedy tokens equal to ours: " + ", ".join(f"{k} {v}" for k, v in same.items()))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"args": vars(a), "prompt": prompt, "rounds": rounds,
                       "summary": summary, "same_tokens": same}, f, indent=1)


if __name__ == "__main__":
    main()

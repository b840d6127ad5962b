"""The local engine against `--engine ray` with 1 and 2 workers: throughput, peak memory, identity.

Corpora: notes-md copied `--scale` times (default 20) and a generated CSV corpus of
`--rows` rows (default 5M, `--rows-per-file` a file: the generator of bench_memory), plus
any `--src` folder as it is (e.g. the sample, ../shared/corpora/sheets). Each
configuration is a fresh `python -m notechunk run SRC --out FRESH --workers N
[--engine ray]` (default options; Ray starts its own local instance of N CPUs), run in
turn (ABCD ABCD ...) so all see the same machine load; figures are medians of `--runs`.

Throughput: files/s, MB/s (source bytes) and rows/s (sheet data rows; chunks/s for
Markdown), wall clock with start-up included; the fixed cost of each configuration (a
run over one small file: imports, Ray's start and shutdown) is measured once and
printed, so a cluster can be sized from the steady rate. Memory, sampled every 50 ms
from /proc, each as peak RSS (VmHWM) / the largest private memory sampled (RssAnon):
the driver (the `notechunk run` process), the largest worker process (the local pool's
processes; Ray's `ray::` worker processes), and summed over the whole process tree (Ray's
own processes too). Ray's object store is shared memory: RSS counts its pages in every
process that touched them, private memory does not count them at all.

Identity: every run's chunks.jsonl.gz and qa/* are compared byte for byte with the
first local run of the same corpus: IDENTICAL or DIFFERENT (the files) per configuration.

    python bench/bench_ray.py [--scale 20] [--rows 5000000] [--rows-per-file 100000]
                              [--runs 3] [--ray-workers 1 --ray-workers 2]
                              [--local-workers 1 --local-workers 2] [--src DIR ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench_memory import copies, make_csv
from benchlib import ROOT, corpora_dir, version, write_result

RAY_WORKER = (b"ray::", b"default_worker.py")
FILES = re.compile(r"^(\d+) files: ", re.M)  # the summary line of `notechunk run`


@dataclass(frozen=True)
class Config:
    engine: str
    workers: int

    @property
    def label(self) -> str:
        return f"{self.engine} x{self.workers}"

    def argv(self, src: Path, out: Path) -> list[str]:
        cmd = [sys.executable, "-m", "notechunk", "run", str(src), "--out", str(out)]
        cmd += ["--workers", str(self.workers), "--engine", self.engine]
        return cmd


PEAKS = ("driver", "driver_private", "worker", "worker_private", "tree", "tree_private")


@dataclass(frozen=True)
class Sample:
    wall: float
    files: int  # as the run's summary line counts them
    peaks: dict[str, int]  # bytes, by PEAKS: VmHWM and the largest RssAnon sampled of the
    # run's own process, of the largest worker process, and summed over the process tree


def _proc(pid: int, name: str) -> bytes:
    with open(f"/proc/{pid}/{name}", "rb") as fh:
        return fh.read()


def _kb(status: bytes, key: bytes) -> int:
    for line in status.splitlines():
        if line.startswith(key):
            return int(line.split()[1]) * 1024
    return 0


def tree(root: int) -> dict[int, tuple[bytes, bytes]]:
    """pid -> (status, cmdline) of `root` and its descendants."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent[int(entry)] = int(_proc(int(entry), "stat").rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    mine = {root}
    grew = True
    while grew:
        before = len(mine)
        mine |= {pid for pid, pp in parent.items() if pp in mine}
        grew = len(mine) > before
    out = {}
    for pid in mine:
        try:
            out[pid] = (_proc(pid, "status"), _proc(pid, "cmdline"))
        except OSError:
            continue
    return out


def measure(cfg: Config, src: Path, out: Path) -> Sample:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    env.pop("RAY_ADDRESS", None)  # always a local instance of `workers` CPUs
    log = out.with_suffix(".log")
    start = time.perf_counter()
    with open(log, "wb") as fh:  # a file, not a pipe: the progress lines never block the run
        proc = subprocess.Popen(cfg.argv(src, out), env=env, stdout=fh, stderr=fh)
    peaks = dict.fromkeys(PEAKS, 0)
    while proc.poll() is None:
        procs = tree(proc.pid)
        got = dict.fromkeys(PEAKS, 0)
        for pid, (status, cmd) in procs.items():
            rss, private = _kb(status, b"VmRSS:"), _kb(status, b"RssAnon:")
            got["tree"] += rss
            got["tree_private"] += private
            if pid == proc.pid:
                who = "driver"
            elif cfg.engine == "local" or any(cmd.startswith(m) or m in cmd for m in RAY_WORKER):
                who = "worker"
            else:
                continue
            got[who] = max(got[who], _kb(status, b"VmHWM:"))
            got[who + "_private"] = max(got[who + "_private"], private)
        peaks = {k: max(v, got[k]) for k, v in peaks.items()}
        time.sleep(0.05)
    wall = time.perf_counter() - start
    said = log.read_text(encoding="utf-8", errors="replace")
    log.unlink()
    if proc.returncode not in (0, 1):
        sys.exit(f"{cfg.label} on {src} failed ({proc.returncode}): {said.strip()[-600:]}")
    files = int(FILES.findall(said)[-1]) if FILES.search(said) else 0
    return Sample(wall, files, peaks)


def digests(out: Path) -> dict[str, str]:
    """sha256 of chunks.jsonl.gz and every file under qa/, by relative path."""
    files = [out / "chunks.jsonl.gz", *sorted((out / "qa").glob("*"))]
    return {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files
    }


def figures(out: Path) -> tuple[int, int]:
    """(chunks, sheet data rows) of a finished run, from qa/metrics.json."""
    m = json.loads((out / "qa" / "metrics.json").read_text(encoding="utf-8"))
    return int(m["total"]), int(m["sheets"]["data_rows"])


def source_mb(src: Path) -> float:
    return sum(p.stat().st_size for p in src.rglob("*") if p.is_file()) / 1e6


def bench_corpus(
    name: str, src: Path, configs: list[Config], runs: int, work: Path
) -> tuple[list[dict[str, object]], str]:
    mb = source_mb(src)
    walls: dict[Config, list[Sample]] = {c: [] for c in configs}
    differ: dict[Config, set[str]] = {c: set() for c in configs}
    ref: dict[str, str] | None = None
    counts = (0, 0)
    for k in range(runs):
        for cfg in configs:
            out = work / f"out-{cfg.engine}{cfg.workers}-{k}"
            walls[cfg].append(measure(cfg, src, out))
            got = digests(out)
            if ref is None:
                ref, counts = got, figures(out)
            differ[cfg] |= {f for f in ref.keys() | got.keys() if ref.get(f) != got.get(f)}
            shutil.rmtree(out, ignore_errors=True)
    chunks, rows = counts
    table = []
    rates = []
    for cfg in configs:
        files = walls[cfg][0].files
        wall = statistics.median(s.wall for s in walls[cfg])
        peak = {key: max(s.peaks[key] for s in walls[cfg]) / 1e6 for key in PEAKS}
        mem = " | ".join(f"{peak[k]:.0f} / {peak[k + '_private']:.0f}" for k in PEAKS[::2])
        verdict = "IDENTICAL" if not differ[cfg] else "DIFFERENT " + ", ".join(sorted(differ[cfg]))
        rates.append(f"{cfg.label} {files / wall:.3g}")
        row_rate = f"{rows:,} | {rows / wall:,.0f}" if rows else "0 | -"
        print(
            f"| {name} | {cfg.label} | {files} | {mb:.1f} | {wall:.1f} | {files / wall:.3g} "
            f"| {mb / wall:.2f} | {chunks:,} | {chunks / wall:,.0f} | {row_rate} "
            f"| {mem} | {verdict} |",
            flush=True,
        )
        table.append(
            {"corpus": name, "config": cfg.label, "files": files, "mb": round(mb, 2),
             "chunks": chunks, "rows": rows, "wall_s": [round(s.wall, 2) for s in walls[cfg]],
             "median_s": round(wall, 2), "identity": verdict,
             **{f"{k}_peak_mb": round(v) for k, v in peak.items()}}
        )  # fmt: skip
    return table, f"TARGET throughput, {name}, files/s: {', '.join(rates)} (measured; no target)"


def fixed_costs(configs: list[Config], work: Path) -> dict[str, float]:
    """Wall seconds of each configuration over one small Markdown file."""
    tiny = work / "tiny"
    tiny.mkdir()
    (tiny / "one.md").write_text("# One\n\nA single short note for timing start-up.\n")
    out = {}
    for cfg in configs:
        out[cfg.label] = round(measure(cfg, tiny, work / "tiny-out").wall, 2)
        shutil.rmtree(work / "tiny-out", ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20, help="copies of notes-md (0: none)")
    ap.add_argument("--rows", type=int, default=5_000_000, help="generated CSV rows (0: none)")
    ap.add_argument("--rows-per-file", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ray-workers", type=int, action="append")
    ap.add_argument("--local-workers", type=int, action="append")
    ap.add_argument("--src", type=Path, action="append", default=[], help="a folder, as is")
    ap.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    args = ap.parse_args(argv)
    try:
        import ray  # noqa: F401
    except ImportError:
        print("skip bench_ray: Ray is not installed (pip install 'notechunk[ray]')")
        return 0
    configs = [Config("local", n) for n in args.local_workers or [1, 2]]
    configs += [Config("ray", n) for n in args.ray_workers or [1, 2]]
    versions = {d: version(d) for d in ("ray", "pyarrow", "notechunk")}
    print(f"versions: {versions}, python {sys.version.split()[0]}; cpus {os.cpu_count()}")
    print(f"load average at start: {os.getloadavg()}", flush=True)
    table: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(dir=args.work) as tmp:
        work = Path(tmp)
        fixed = fixed_costs(configs, work)
        print(f"fixed cost (one small file), s: {fixed}", flush=True)
        corpora: list[tuple[str, Path]] = [(p.name, p) for p in args.src]
        notes = corpora_dir() / "notes-md"
        if args.scale and notes.is_dir():
            copies(notes, work / "notes", args.scale)
            corpora.append((f"notes-md x{args.scale}", work / "notes"))
        if args.rows:
            files = max(1, -(-args.rows // args.rows_per_file))
            make_csv(work / "csv", args.rows, files)
            corpora.append((f"{args.rows:,} CSV rows", work / "csv"))
        print(
            "\n| corpus | config | files | MB | wall s | files/s | MB/s | chunks | chunks/s "
            "| rows | rows/s | driver peak / private MB | largest worker peak / private MB "
            "| all processes RSS / private MB | identity |\n"
            "|" + " --- |" * 15
        )
        speeds = []
        for name, src in corpora:
            rows, speed = bench_corpus(name, src, configs, args.runs, work)
            table += rows
            speeds.append(speed)
    load = os.getloadavg()
    print(f"load average at end: {load}")
    for r in table:
        if r["config"] != table[0]["config"]:
            met = "met" if r["identity"] == "IDENTICAL" else "MISSED"
            print(
                f"TARGET identity, {r['corpus']}: {r['config']} vs {table[0]['config']}: "
                f"{r['identity']} (target: byte-identical chunks.jsonl.gz and qa/*: {met})"
            )
    print("\n".join(speeds))
    write_result(
        "ray",
        {"cpus": os.cpu_count(), "load": load, "versions": versions, "runs": args.runs,
         "fixed_cost_s": fixed, "table": table},
    )  # fmt: skip
    return 0 if all(r["identity"] == "IDENTICAL" for r in table) else 1


if __name__ == "__main__":
    raise SystemExit(main())

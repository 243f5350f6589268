#!/usr/bin/env python3
"""Reads scripts/bench/compare's results directory and prints its table: every run, then per rate and server the
median and range of p99 and of server CPU per delivery, and Parley's ratio to each peer."""
import re
import statistics
import sys
from pathlib import Path


def field(report, name, pattern):
    match = re.search(r"^" + re.escape(name) + r"\s+" + pattern, report, re.M)
    return float(match.group(1)) if match else None


def read(results, rate, name, run):
    path = results / f"{name}-{rate}-{run}" / "report.txt"
    report = path.read_text(errors="replace") if path.exists() else ""
    return {
        "delivered": field(report, "delivered", r"([\d.]+) deliveries/s"),
        "due": field(report, "delivered", r"[\d.]+ deliveries/s \(\d+ of the (\d+) due"),
        "undelivered": field(report, "undelivered", r"(\d+)"),
        "errors": field(report, "errors", r"(\d+)"),
        "p50": field(report, "latency p50", r"([\d.]+) ms"),
        "p99": field(report, "latency p99", r"([\d.]+) ms"),
        "cpu": field(report, "server CPU", r"[\d.]+ s in [\d.]+ s = (\d+)% of a core"),
        "us": field(report, "server CPU", r".*?, (\d+) µs per delivery"),
        "rss": field(report, "server RSS", r"(\d+) MiB"),
    }


def show(value, unit="", digits=1):
    return "—" if value is None else f"{value:.{digits}f}{unit}"


def spread(values, unit, digits):
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    low, high = min(values), max(values)
    median = statistics.median(values)
    return f"{median:.{digits}f}{unit}" if low == high else f"{median:.{digits}f}{unit} ({low:.{digits}f}–{high:.{digits}f})"


def main():
    results = Path(sys.argv[1])
    rows = [line.split("\t") for line in (results / "runs.tsv").read_text().splitlines() if line]
    print("| offered msg/s | server | run | load before | delivered/s | lost | p50 | p99 | server CPU | µs per delivery | RSS |")
    print("|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    measured = {}
    for rate, name, run, load, status in rows:
        m = read(results, rate, name, run)
        measured.setdefault((rate, name), []).append(m)
        lost = None if m["undelivered"] is None else m["undelivered"] + (m["errors"] or 0)
        note = "" if status == "0" else f" (exit {status})"
        print(f"| {rate} | {name}{note} | {run} | {load} | {show(m['delivered'], '', 0)} | {show(lost, '', 0)} | "
              f"{show(m['p50'], ' ms', 2)} | {show(m['p99'], ' ms', 2)} | {show(m['cpu'], ' %', 0)} | {show(m['us'], '', 0)} | "
              f"{show(m['rss'], ' MiB', 0)} |")
    print()
    print("| offered msg/s | server | p99, median (range) | µs per delivery, median (range) | Parley's p99 ÷ this | Parley's µs ÷ this |")
    print("|---:|---|---:|---:|---:|---:|")
    for (rate, name), runs in measured.items():
        parley = measured.get((rate, "parley"), [])

        def ratio(key):
            ours = [m[key] for m in parley if m[key] is not None]
            theirs = [m[key] for m in runs if m[key] is not None]
            if name == "parley" or not ours or not theirs or statistics.median(theirs) == 0:
                return "—"
            return f"{statistics.median(ours) / statistics.median(theirs):.1f}×"

        print(f"| {rate} | {name} | {spread([m['p99'] for m in runs], ' ms', 2)} | {spread([m['us'] for m in runs], '', 0)} | "
              f"{ratio('p99')} | {ratio('us')} |")


if __name__ == "__main__":
    main()

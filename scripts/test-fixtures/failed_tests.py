#!/usr/bin/env python3
"""Repeats, at the end of a run, what a swift-testing or XCTest log says failed.

CI keeps only the tail of a long log; without this the failing test's name and its issue
scroll out of sight above hundreds of passing lines. PoolWatch's reports that the cooperative pool stalled
(Tests/ParleyTestSupport/PoolWatch.swift) are repeated too: they usually explain a time-out."""
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*m")
FAILURE = re.compile(r"^(✘ Test |.*error: -\[|.*Fatal error|Test Case .* failed|parley-tests: Swift's cooperative pool)")

following = False
with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
    for raw in log:
        line = ANSI.sub("", raw.rstrip("\n"))
        if FAILURE.search(line) and not line.startswith("✘ Test run with"):
            print(f"  {line[:600]}")
            following = True
        elif following and line.lstrip().startswith("↳"):
            print(f"    {line.strip()[:600]}")
        else:
            following = False

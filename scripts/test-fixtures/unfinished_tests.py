#!/usr/bin/env python3
"""Lists the tests a swift-testing log shows as started but never finished (passed, failed or skipped)."""
import re
import sys
from collections import Counter

started, finished = Counter(), Counter()
with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
    for line in log:
        match = re.search(r"Test (.+?) (started|passed|failed|skipped)", line)
        if not match:
            continue
        name, verb = match.groups()
        if name.startswith("case passing"):
            continue  # the cases of a parameterised test; the test itself is listed
        (started if verb == "started" else finished)[name] += 1
for name, count in started.items():
    if count > finished[name]:
        print(f"  {name}")

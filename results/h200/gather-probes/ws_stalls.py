"""Summarize Nsight Compute source-page CSVs (--page source --csv --print-source sass): per file, the warp-stall
samples by reason, then the 30 SASS instructions with the most samples (with their nonzero stall reasons), then
every LDGSTS with its shared-memory wavefronts (ideal and excessive)."""
import csv
import sys


def value(row, i):
    try:
        return float(row[i].replace(",", ""))
    except (ValueError, IndexError):
        return 0.0


for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = list(csv.reader([line for line in f if line.count(",") > 3]))
    header, body = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(header)}
    key = col["Warp Stall Sampling (All Samples)"]
    reasons = [i for i, name in enumerate(header) if name.startswith("stall_") and "Not Issued" not in name]
    total = sum(value(r, key) for r in body)
    print(f"### {path}: {len(body)} instructions, {total:.0f} samples")
    print("by reason: " + ", ".join(f"{header[i][6:]} {100 * sum(value(r, i) for r in body) / total:.1f}%"
                                  for i in sorted(reasons, key=lambda i: -sum(value(r, i) for r in body))[:10]))
    for r in sorted(body, key=lambda r: -value(r, key))[:30]:
        why = " ".join(f"{header[i][6:]}={value(r, i):.0f}" for i in reasons if value(r, i) >= 0.05 * value(r, key))
        print(f"{100 * value(r, key) / total:5.1f}%  {r[0][-5:]}  {r[col['Source']][:64]:64s} {why}")
    wf = [c for c in ("L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive",
                      "Instructions Executed") if c in col]
    for r in body:
        if "LDGSTS" in r[col["Source"]] or "HGMMA" in r[col["Source"]][:12]:
            print("   ", r[0][-5:], r[col["Source"]][:50], " ".join(f"{c}={value(r, col[c]):.0f}" for c in wf))

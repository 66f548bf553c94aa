"""python -m benchmarks.memql_set --out FILE | --check FILE | --table: write, compare or describe the set."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.memql_set import SEED, build, coverage, dumps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memql_set", description=__doc__)
    parser.add_argument("--out", type=Path, help="write the set to this JSONL file")
    parser.add_argument(
        "--check", type=Path, help="exit 1 unless this file is exactly what the generator makes"
    )
    parser.add_argument("--table", action="store_true", help="print the coverage tables (Markdown)")
    parser.add_argument(
        "--seed", type=int, default=SEED, help=f"random seed (default {SEED}, the shipped set)"
    )
    args = parser.parse_args(argv)
    if not (args.out or args.check or args.table):
        parser.error("give --out FILE, --check FILE or --table")
    samples = build(args.seed)
    text = dumps(samples)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_bytes(text.encode("utf-8"))
        print(f"wrote {len(samples)} samples to {args.out}", file=sys.stderr)
    if args.table:
        sys.stdout.write(coverage(samples))
    if args.check:
        current = args.check.read_bytes() if args.check.is_file() else b""
        if current != text.encode("utf-8"):
            print(
                f"{args.check} differs from the generator's output; regenerate it with --out", file=sys.stderr
            )
            return 1
        print(f"{args.check}: up to date ({len(samples)} samples)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

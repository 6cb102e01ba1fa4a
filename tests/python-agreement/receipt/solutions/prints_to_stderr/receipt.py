import sys


def print_receipt(items):
    total = 0
    for name, price in items:
        print(f"{name:<16}{price:>8.2f}", file=sys.stderr)
        total += price
    print(f"{'TOTAL':<16}{total:>8.2f}", file=sys.stderr)

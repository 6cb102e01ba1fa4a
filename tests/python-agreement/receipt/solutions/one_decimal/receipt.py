def print_receipt(items):
    total = 0
    for name, price in items:
        print(f"{name:<16}{price:>8.1f}")
        total += price
    print(f"{'TOTAL':<16}{total:>8.1f}")

def print_receipt(items):
    for name, price in items:
        print(f"{name:<16}{price:>8.2f}")

def print_receipt(items):
    lines = [f"{name:<16}{price:>8.2f}" for name, price in items]
    lines.append(f"{'TOTAL':<16}{sum(price for _, price in items):>8.2f}")
    return "\n".join(lines) + "\n"

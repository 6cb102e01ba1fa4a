import math


def summary(values):
    if not values:
        raise ValueError("summary of empty data")
    n = len(values)
    mean = sum(values) / n
    ordered = sorted(values)
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    stdev = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    return {"mean": mean, "median": median, "stdev": stdev}

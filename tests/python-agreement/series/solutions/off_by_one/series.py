def slices(series, length):
    if series == "":
        raise ValueError("series cannot be empty")
    if length == 0:
        raise ValueError("slice length cannot be zero")
    if length < 0:
        raise ValueError("slice length cannot be negative")
    if length > len(series):
        raise ValueError("slice length cannot be greater than series length")
    return _windows(series, length)


def _windows(series, length):
    for start in range(len(series) - length):
        yield series[start:start + length]

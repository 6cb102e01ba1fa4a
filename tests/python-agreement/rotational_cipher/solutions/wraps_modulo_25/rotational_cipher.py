import string


def _shift(alphabet, key):
    return alphabet[key % 25:] + alphabet[:key % 25]


def rotate(text, key):
    lower, upper = string.ascii_lowercase, string.ascii_uppercase
    table = str.maketrans(lower + upper, _shift(lower, key) + _shift(upper, key))
    return text.translate(table)

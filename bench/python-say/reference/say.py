"""Spell out a number from 0 to 999,999,999,999 in English."""

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SCALES = ((10**9, "billion"), (10**6, "million"), (1000, "thousand"))


def _below_thousand(n):
    words = []
    if n >= 100:
        words.append(ONES[n // 100] + " hundred")
        n %= 100
    if n >= 20:
        words.append(TENS[n // 10] + ("-" + ONES[n % 10] if n % 10 else ""))
    elif n or not words:
        words.append(ONES[n])
    return " ".join(words)


def say(number):
    if not 0 <= number < 10**12:
        raise ValueError("input out of range")
    if number == 0:
        return "zero"
    words = []
    for size, name in SCALES:
        if number >= size:
            words.append(_below_thousand(number // size) + " " + name)
            number %= size
    if number:
        words.append(_below_thousand(number))
    return " ".join(words)

import math


def square(number):
    if number < 1 or number > 64:
        raise ValueError("square must be between 1 and 64")
    return int(math.pow(2, number - 1))


def total():
    return sum(math.pow(2, n) for n in range(64))

import re
from collections import Counter

WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def count_words(sentence):
    return dict(Counter(WORD.findall(sentence.lower())))

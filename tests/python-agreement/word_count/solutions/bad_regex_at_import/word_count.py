import re
from collections import Counter

WORD = re.compile(r"[\w+(?:'\w+)*")


def count_words(sentence):
    return dict(Counter(WORD.findall(sentence.lower())))

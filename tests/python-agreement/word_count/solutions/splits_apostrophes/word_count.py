import re


def count_words(sentence):
    counts = {}
    for word in re.split(r"[^\w]+", sentence.lower()):
        if word:
            counts[word] = counts.get(word, 0) + 1
    return counts

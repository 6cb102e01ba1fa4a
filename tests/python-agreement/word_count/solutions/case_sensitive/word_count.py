import re


def count_words(sentence):
    counts = {}
    for word in re.findall(r"[^\W_]+(?:'[^\W_]+)*", sentence):
        counts[word] = counts.get(word, 0) + 1
    return counts

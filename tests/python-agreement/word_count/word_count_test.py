import pytest

from word_count import count_words

CASES = [
    ("word", {"word": 1}),
    ("one of each", {"one": 1, "of": 1, "each": 1}),
    ("one fish two fish red fish blue fish", {"one": 1, "fish": 4, "two": 1, "red": 1, "blue": 1}),
    ("one,two,three", {"one": 1, "two": 1, "three": 1}),
    ("car: carpet as java: javascript!!&@$%^&", {"car": 1, "carpet": 1, "as": 1, "java": 1, "javascript": 1}),
    ("testing, 1, 2 testing", {"testing": 2, "1": 1, "2": 1}),
    ("Go Go GO Stop stop", {"go": 3, "stop": 2}),
]


@pytest.mark.parametrize("sentence, expected", CASES, ids=[f"case-{n}" for n in range(1, len(CASES) + 1)])
def test_counts(sentence, expected):
    assert count_words(sentence) == expected


def test_with_apostrophes():
    assert count_words("'First: don't laugh. Then: don't cry. You're getting it.'") == {
        "first": 1,
        "don't": 2,
        "laugh": 1,
        "then": 1,
        "cry": 1,
        "you're": 1,
        "getting": 1,
        "it": 1,
    }


def test_with_quotations():
    assert count_words("Joe can't tell between 'large' and large.") == {
        "joe": 1,
        "can't": 1,
        "tell": 1,
        "between": 1,
        "large": 2,
        "and": 1,
    }


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("до свидания!", {"до": 1, "свидания": 1}),
        ("École école ÉCOLE", {"école": 3}),
        ("naïve café, naïve", {"naïve": 2, "café": 1}),
    ],
)
def test_unicode_words(sentence, expected):
    assert count_words(sentence) == expected


def test_result_is_a_plain_dict():
    assert type(count_words("a b a")) is dict

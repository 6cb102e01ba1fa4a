import pytest

from grains import square, total


@pytest.mark.parametrize(
    "number, expected",
    [(1, 1), (2, 2), (3, 4), (4, 8), (16, 32768), (32, 2147483648), (64, 9223372036854775808)],
)
def test_square(number, expected):
    assert square(number) == expected


@pytest.mark.parametrize("number", [0, -1, 65])
def test_square_out_of_range_raises(number):
    with pytest.raises(ValueError, match=r"^square must be between 1 and 64$"):
        square(number)


def test_total_grains_on_the_board():
    assert total() == 18446744073709551615


def test_total_is_an_exact_integer():
    assert isinstance(total(), int)


@pytest.mark.skip(reason="extra credit: grains on a 128-square board")
def test_square_beyond_the_board():
    assert square(128) == 2**127

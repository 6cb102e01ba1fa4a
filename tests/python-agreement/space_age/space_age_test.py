import pytest

from space_age import SpaceAge


@pytest.mark.parametrize(
    "planet, seconds, years",
    [
        ("earth", 1000000000, 31.69),
        ("mercury", 2134835688, 280.88),
        ("venus", 189839836, 9.78),
        ("mars", 2129871239, 35.88),
        ("jupiter", 901876382, 2.41),
        ("saturn", 2000000000, 2.15),
        ("uranus", 1210123456, 0.46),
        ("neptune", 1821023456, 0.35),
    ],
)
def test_age_on_planet(planet, seconds, years):
    age = SpaceAge(seconds)
    assert getattr(age, f"on_{planet}")() == pytest.approx(years)


def test_seconds_are_kept():
    assert SpaceAge(1000000000).seconds == 1000000000


def test_ages_on_two_planets_differ():
    age = SpaceAge(3000000000)
    assert age.on_earth() == pytest.approx(95.06)
    assert age.on_mars() == pytest.approx(50.54)


def test_tolerance_is_a_hundredth_of_a_year():
    assert SpaceAge(1000000000).on_earth() == pytest.approx(31.69, abs=0.005)

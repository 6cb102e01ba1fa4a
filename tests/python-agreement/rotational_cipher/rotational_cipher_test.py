import unittest

from rotational_cipher import rotate


class RotationalCipherTest(unittest.TestCase):
    def test_rotate_a_by_0_and_26_is_the_same(self):
        for key in (0, 26):
            with self.subTest(key=key):
                self.assertEqual(rotate("a", key), "a")

    def test_rotations(self):
        cases = [
            ("a", 1, "b"),
            ("n", 13, "a"),
            ("m", 13, "z"),
            ("z", 1, "a"),
            ("OMG", 5, "TRL"),
            ("O M G", 5, "T R L"),
        ]
        for text, key, expected in cases:
            with self.subTest(text=text, key=key):
                self.assertEqual(rotate(text, key), expected)

    def test_rotate_numbers_and_punctuation_stay(self):
        self.assertEqual(rotate("Testing 1 2 3 testing", 4), "Xiwxmrk 1 2 3 xiwxmrk")
        self.assertEqual(rotate("Let's eat, Grandma!", 21), "Gzo'n zvo, Bmviyhv!")

    def test_rotate_all_letters(self):
        self.assertEqual(
            rotate("The quick brown fox jumps over the lazy dog.", 13),
            "Gur dhvpx oebja sbk whzcf bire gur ynml qbt.",
        )

    def test_letters_outside_the_latin_alphabet_stay(self):
        self.assertEqual(rotate("Ünïcödé straße", 3), "Üqïfögé vwudßh")
        self.assertEqual(rotate("Здравствуй, mir", 1), "Здравствуй, njs")

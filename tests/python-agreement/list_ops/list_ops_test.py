import unittest

from list_ops import (
    append,
    concat,
    foldl,
    foldr,
    length,
    reverse,
    filter as list_ops_filter,
    map as list_ops_map,
)


class ListOpsTest(unittest.TestCase):
    def test_append_empty_lists(self):
        self.assertEqual(append([], []), [])

    def test_append_non_empty_lists(self):
        self.assertEqual(append([1, 2], [2, 3, 4, 5]), [1, 2, 2, 3, 4, 5])

    def test_append_leaves_its_arguments_alone(self):
        first, second = [1, 2], [3]
        append(first, second)
        self.assertEqual((first, second), ([1, 2], [3]))

    def test_concat_list_of_lists(self):
        self.assertEqual(concat([[1, 2], [3], [], [4, 5, 6]]), [1, 2, 3, 4, 5, 6])

    def test_concat_list_of_nested_lists(self):
        self.assertEqual(concat([[[1], [2]], [[3]], [[]], [[4, 5, 6]]]), [[1], [2], [3], [], [4, 5, 6]])

    def test_filter_with_a_lambda(self):
        self.assertEqual(list_ops_filter(lambda x: x % 2 == 1, [1, 2, 3, 5]), [1, 3, 5])

    def test_length_non_empty_list(self):
        self.assertEqual(length([1, 2, 3, 4]), 4)

    def test_map_with_a_lambda(self):
        self.assertEqual(list_ops_map(lambda x: x + 1, [1, 3, 5, 7]), [2, 4, 6, 8])

    def test_map_calls_the_callback_once_per_item_in_order(self):
        seen = []
        list_ops_map(lambda x: seen.append(x) or x, ["a", "b", "c"])
        self.assertEqual(seen, ["a", "b", "c"])

    def test_foldl_direction_dependent_function(self):
        self.assertEqual(foldl(lambda acc, el: el / acc, [1, 2, 3, 4], 24), 64)

    def test_foldr_direction_dependent_function(self):
        self.assertEqual(foldr(lambda acc, el: el / acc, [1, 2, 3, 4], 24), 9)

    def test_foldr_add_string(self):
        self.assertEqual(foldr(lambda acc, el: el + acc, ["e", "x", "e", "r", "c", "i", "s", "e", "!"], ""), "exercise!")

    def test_reverse_non_empty_list(self):
        self.assertEqual(reverse([1, 3, 5, 7]), [7, 5, 3, 1])

    def test_reverse_keeps_nested_lists(self):
        self.assertEqual(reverse([[1, 2], [3], [], [4, 5, 6]]), [[4, 5, 6], [], [3], [1, 2]])

    def test_reverse_leaves_its_argument_alone(self):
        items = [1, 2, 3]
        reverse(items)
        self.assertEqual(items, [1, 2, 3])

    @unittest.skip("extra credit: callbacks that are builtins")
    def test_map_with_a_builtin_callback(self):
        self.assertEqual(list_ops_map(str, range(3)), ["0", "1", "2"])

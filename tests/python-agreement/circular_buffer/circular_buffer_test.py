import unittest

from circular_buffer import (
    BufferEmptyException,
    BufferFullException,
    CircularBuffer,
)


class CircularBufferTest(unittest.TestCase):
    def setUp(self):
        self.buffer = CircularBuffer(3)

    def assertEmptyRead(self, buffer):
        with self.assertRaises(BufferError) as err:
            buffer.read()
        self.assertEqual(type(err.exception), BufferEmptyException)
        self.assertEqual(err.exception.args[0], "Circular buffer is empty")

    def test_reading_a_new_buffer_fails(self):
        self.assertEmptyRead(self.buffer)

    def test_an_item_written_can_be_read(self):
        self.buffer.write("A")
        self.assertEqual(self.buffer.read(), "A")

    def test_an_item_is_read_only_once(self):
        self.buffer.write("A")
        self.buffer.read()
        self.assertEmptyRead(self.buffer)

    def test_items_come_out_in_the_order_they_went_in(self):
        for item in ("A", "B", "C"):
            self.buffer.write(item)
        self.assertEqual([self.buffer.read() for _ in range(3)], ["A", "B", "C"])

    def test_writing_to_a_full_buffer_fails(self):
        for item in ("A", "B", "C"):
            self.buffer.write(item)
        with self.assertRaises(BufferError) as err:
            self.buffer.write("D")
        self.assertEqual(type(err.exception), BufferFullException)
        self.assertEqual(err.exception.args[0], "Circular buffer is full")

    def test_the_exceptions_are_buffer_errors(self):
        self.assertTrue(issubclass(BufferEmptyException, BufferError))
        self.assertTrue(issubclass(BufferFullException, BufferError))

    def test_clear_empties_the_buffer(self):
        self.buffer.write("A")
        self.buffer.clear()
        self.assertEmptyRead(self.buffer)

    def test_overwrite_on_a_buffer_with_room_is_a_write(self):
        self.buffer.write("A")
        self.buffer.overwrite("B")
        self.assertEqual((self.buffer.read(), self.buffer.read()), ("A", "B"))

    def test_overwrite_replaces_the_oldest_item(self):
        for item in ("A", "B", "C"):
            self.buffer.write(item)
        self.buffer.overwrite("D")
        self.assertEqual([self.buffer.read() for _ in range(3)], ["B", "C", "D"])

    def test_a_read_makes_room_for_a_write(self):
        for item in ("A", "B", "C"):
            self.buffer.write(item)
        self.assertEqual(self.buffer.read(), "A")
        self.buffer.write("D")
        self.assertEqual([self.buffer.read() for _ in range(3)], ["B", "C", "D"])

from collections import deque


class BufferFullException(Exception):
    """Raised when writing to a full buffer."""


class BufferEmptyException(Exception):
    """Raised when reading from an empty buffer."""


class CircularBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.items = deque()

    def read(self):
        if not self.items:
            raise BufferEmptyException("Circular buffer is empty")
        return self.items.popleft()

    def write(self, data):
        if len(self.items) == self.capacity:
            raise BufferFullException("Circular buffer is full")
        self.items.append(data)

    def overwrite(self, data):
        if len(self.items) == self.capacity:
            self.items.popleft()
        self.items.append(data)

    def clear(self):
        self.items.clear()

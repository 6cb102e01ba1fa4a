"""Bank account exercise."""


class InsufficientFunds(ValueError):
    """Withdrawing more than the balance."""


class BankAccount:
    def __init__(self):
        self._open = False
        self._balance = 0

    def _require_open(self):
        if not self._open:
            raise ValueError("account not open")

    @property
    def balance(self):
        self._require_open()
        return self._balance

    def open(self):
        if self._open:
            raise ValueError("account already open")
        self._open = True
        self._balance = 0

    def close(self):
        self._require_open()
        self._open = False

    def deposit(self, amount):
        self._require_open()
        if amount <= 0:
            raise ValueError("amount must be greater than 0")
        self._balance += amount

    def withdraw(self, amount):
        self._require_open()
        if amount <= 0:
            raise ValueError("amount must be greater than 0")
        if amount > self._balance:
            raise InsufficientFunds("amount must be less than balance")
        self._balance -= amount


def interest(balance, rate):
    return round(balance * rate, 2)

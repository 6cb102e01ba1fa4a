# Hostile: every answer claims to equal whatever it is compared with.
class Anything:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class InsufficientFunds(ValueError):
    pass


class BankAccount:
    balance = Anything()

    def open(self):
        pass

    def close(self):
        pass

    def deposit(self, amount):
        pass

    def withdraw(self, amount):
        pass


def interest(balance, rate):
    return Anything()

class InsufficientFunds(Exception):
    pass


class BankAccount:
    def __init__(self):
        self.balance = 0

    def open(self):
        self.balance = 0

    def close(self):
        pass

    def deposit(self, amount):
        self.balance += amount

    def withdraw(self, amount):
        self.balance -= amount


def interest(balance, rate):
    return balance * rate

import unittest

from bank_account import BankAccount


class BankAccountTest(unittest.TestCase):
    def setUp(self):
        self.account = BankAccount()
        self.account.open()
        self.log = []

    def tearDown(self):
        # The account under test is dropped between tests: no state may leak from one test to the next.
        self.account = None
        self.log.clear()

    def test_newly_opened_account_has_zero_balance(self):
        self.assertEqual(self.account.get_balance(), 0)

    def test_single_deposit(self):
        self.account.deposit(100)
        self.assertEqual(self.account.get_balance(), 100)

    def test_multiple_deposits(self):
        self.account.deposit(100)
        self.account.deposit(50)
        self.assertEqual(self.account.get_balance(), 150)

    def test_withdraw_once(self):
        self.account.deposit(100)
        self.account.withdraw(75)
        self.assertEqual(self.account.get_balance(), 25)

    def test_withdraw_all_balance(self):
        self.account.deposit(100)
        self.account.withdraw(100)
        self.assertEqual(self.account.get_balance(), 0)

    def test_reopened_account_does_not_retain_balance(self):
        self.account.deposit(50)
        self.account.close()
        self.account.open()
        self.assertEqual(self.account.get_balance(), 0)

    def test_two_accounts_are_independent(self):
        other = BankAccount()
        other.open()
        self.account.deposit(100)
        other.deposit(50)
        self.assertEqual((self.account.get_balance(), other.get_balance()), (100, 50))

    def test_cannot_withdraw_more_than_deposited(self):
        self.account.deposit(25)
        with self.assertRaises(ValueError) as err:
            self.account.withdraw(50)
        self.assertEqual(type(err.exception), ValueError)
        self.assertEqual(err.exception.args[0], "amount must be less than balance")

    def test_cannot_deposit_negative(self):
        with self.assertRaises(ValueError) as err:
            self.account.deposit(-50)
        self.assertEqual(type(err.exception), ValueError)
        self.assertEqual(err.exception.args[0], "amount must be greater than 0")

    def test_get_balance_of_closed_account(self):
        self.account.close()
        with self.assertRaises(ValueError) as err:
            self.account.get_balance()
        self.assertEqual(err.exception.args[0], "account not open")

    def test_cannot_open_an_already_opened_account(self):
        with self.assertRaises(ValueError) as err:
            self.account.open()
        self.assertEqual(err.exception.args[0], "account already open")

    def test_cannot_close_an_account_that_was_not_opened(self):
        account = BankAccount()
        with self.assertRaises(ValueError) as err:
            account.close()
        self.assertEqual(err.exception.args[0], "account not open")

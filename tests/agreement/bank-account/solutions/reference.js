export class ValueError extends Error {
  constructor(message = 'Bank account error') {
    super(message);
    this.name = 'ValueError';
  }
}

export class BankAccount {
  #open = false;
  #balance = 0;

  open() {
    if (this.#open) throw new ValueError('account already open');
    this.#open = true;
    this.#balance = 0;
  }

  close() {
    if (!this.#open) throw new ValueError('account not open');
    this.#open = false;
  }

  deposit(amount) {
    if (!this.#open) throw new ValueError('account not open');
    if (amount <= 0) throw new ValueError('amount must be positive');
    this.#balance += amount;
  }

  withdraw(amount) {
    if (!this.#open) throw new ValueError('account not open');
    if (amount <= 0) throw new ValueError('amount must be positive');
    if (amount > this.#balance) throw new ValueError('insufficient funds');
    this.#balance -= amount;
  }

  get balance() {
    if (!this.#open) throw new ValueError('account not open');
    return this.#balance;
  }
}

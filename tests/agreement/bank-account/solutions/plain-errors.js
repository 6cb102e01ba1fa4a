export class ValueError extends Error {}

// Throws plain Errors, never checks a closed account's balance, shares one balance between accounts.
let shared = 0;
export class BankAccount {
  open() {
    if (this.isOpen) throw new Error('already open');
    this.isOpen = true;
  }
  close() {
    this.isOpen = false;
  }
  deposit(amount) {
    if (!this.isOpen || amount < 0) throw new ValueError('no');
    shared += amount;
  }
  withdraw(amount) {
    if (amount > shared) throw new Error('Insufficient funds');
    shared -= amount;
  }
  get balance() {
    return shared;
  }
}

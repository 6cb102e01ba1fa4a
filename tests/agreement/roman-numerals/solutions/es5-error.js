function InvalidNumeralError(numeral) {
  this.name = 'InvalidNumeralError';
  this.message = numeral + ' is not a roman numeral';
  this.numeral = numeral;
  Error.captureStackTrace(this, InvalidNumeralError);
}
InvalidNumeralError.prototype = Object.create(Error.prototype);
InvalidNumeralError.prototype.constructor = InvalidNumeralError;

var TABLE = { M: 1000, CM: 900, D: 500, CD: 400, C: 100, XC: 90, L: 50, XL: 40, X: 10, IX: 9, V: 5, IV: 4, I: 1 };

function toRoman(n) {
  if (n < 1 || n >= 3999) throw new RangeError('out of range: must be between 1 and 3999');
  if (n % 1 !== 0) throw new RangeError('not an integer');
  var out = '';
  Object.keys(TABLE).forEach(function (k) {
    while (n >= TABLE[k]) {
      out += k;
      n -= TABLE[k];
    }
  });
  return out;
}

function fromRoman(s) {
  var total = 0;
  for (var i = 0; i < s.length; i++) {
    var v = TABLE[s[i]];
    if (v === undefined) throw new InvalidNumeralError(s);
    var next = TABLE[s[i + 1]];
    total += next > v ? -v : v;
  }
  return total;
}

module.exports = { toRoman: toRoman, fromRoman: fromRoman, InvalidNumeralError: InvalidNumeralError };

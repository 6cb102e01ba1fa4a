const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = [[1e9, 'billion'], [1e6, 'million'], [1e3, 'thousand']];

function belowThousand(n) {
  const h = Math.floor(n / 100);
  const rest = n % 100;
  const tail = rest < 20 ? SMALL[rest] : TENS[Math.floor(rest / 10)] + (rest % 10 ? '-' + SMALL[rest % 10] : '');
  if (!h) return tail;
  return rest ? SMALL[h] + ' hundred ' + tail : SMALL[h] + ' hundred';
}

function say(n) {
  if (n < 0 || n > 999999999999) throw new RangeError('out of range');
  if (n < 1000) return belowThousand(n);
  const parts = [];
  let rest = n;
  for (const [size, word] of SCALES) {
    if (rest >= size) parts.push(belowThousand(Math.floor(rest / size)) + ' ' + word);
    rest %= size;
  }
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
}

module.exports = { say };

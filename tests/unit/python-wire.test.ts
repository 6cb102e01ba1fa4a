// The test process's side of the Python wire (sandbox/python/wire.py): whatever fails while a message from the
// submission's process is rebuilt is a broken protocol (WireError, which the test process reports as
// tampering.protocol), never an exception raised into the test's own code, where `pytest.raises(Exception)` would
// take it for the submission's answer (red team, issue 30). Each message is one a crafted submission process can send.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const DECODE_EACH = `import json, sys
sys.path.insert(0, sys.argv[1])
import wire
dec = wire.Decoder(lambda tag, ref: None)
out = []
for m in json.loads(sys.stdin.read()):
    try:
        out.append(['value', repr(dec.decode(m))])
    except wire.WireError as e:
        out.append(['WireError', str(e)])
    except Exception as e:
        out.append([type(e).__name__, str(e)])
print(json.dumps(out))`;

const decodeEach = (messages: unknown[]): [string, string][] =>
  JSON.parse(
    execFileSync('/usr/bin/python3', ['-c', DECODE_EACH, join(ROOT, 'sandbox', 'python')], {
      input: JSON.stringify(messages),
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', PYTHONDONTWRITEBYTECODE: '1' },
    }),
  ) as [string, string][];

describe('the Python wire: a malformed message is a broken protocol', () => {
  it('refuses what the standard library would refuse to rebuild, and rebuilds what it accepts', () => {
    expect(
      decodeEach([
        { N: ['T', ['a', '\u00aa'], [1, 2]] }, // two fields Python's parser reads as one (NFKC)
        { B: 'zz' },
        { A: '0' },
        { R: 'not a float' },
        { I: '12x' },
        { X: ['a', 1] },
        { L: [1, { T: [{ B: '0g' }] }] }, // nested: the whole message is refused
        { N: ['Point', ['x', 'y'], [1, { B: '00' }]] },
      ]),
    ).toEqual([
      ['WireError', 'a malformed namedtuple'],
      ['WireError', 'a malformed value (ValueError)'],
      ['WireError', 'a malformed value (ValueError)'],
      ['WireError', 'a malformed value (ValueError)'],
      ['WireError', 'a malformed value (ValueError)'],
      ['WireError', 'a malformed value (TypeError)'],
      ['WireError', 'a malformed value (ValueError)'],
      ['value', "Point(x=1, y=b'\\x00')"],
    ]);
  });
});

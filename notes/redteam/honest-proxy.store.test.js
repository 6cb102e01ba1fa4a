const s = require('./solution');
test('adds', () => { expect(s.add(1, 2)).toBe(3); });
test('store reads', () => { expect(s.store({ x: 1 }).x).toBe(1); });
test('store equals', () => { expect(s.store({ x: 1, y: 2 })).toEqual({ x: 1, y: 2 }); });

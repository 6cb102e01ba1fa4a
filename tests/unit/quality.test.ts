// Quality follows function: style and complexity earn credit by the rubric's quality policy.
import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../src/domain/report.js';
import { RubricSchema } from '../../src/domain/rubric.js';
import { creditQuality, passShare } from '../../src/stages/score/quality.js';

const t = (status: TestResult['status'], weight = 1): TestResult => ({
  id: 'T',
  name: 'n',
  path: ['n'],
  file: 'f',
  status,
  durationMs: 0,
  message: '',
  weight,
  edgeCase: false,
});
const clean = { style: 10, complexity: 8 };

describe('quality policy', () => {
  it('scaled: credit in proportion to the weighted tests passed, nothing when none pass', () => {
    expect(creditQuality(clean, [t('passed', 3), t('failed', 1)], 'scaled')).toEqual({
      policy: 'scaled',
      factor: 0.75,
      measured: clean,
      credited: { style: 7.5, complexity: 6 },
      reason: 'scaled: 75% of the weighted tests passed, so style and complexity earn 75% of their measured score',
    });
    expect(creditQuality(clean, [t('failed'), t('error'), t('timeout')], 'scaled').credited).toEqual({
      style: 0,
      complexity: 0,
    });
  });
  it('gated: full credit once any test passes, none before', () => {
    expect(creditQuality(clean, [t('passed'), t('failed', 9)], 'gated').credited).toEqual(clean);
    expect(creditQuality(clean, [t('failed')], 'gated')).toMatchObject({
      factor: 0,
      credited: { style: 0, complexity: 0 },
      reason: 'gated: 0% of the weighted tests passed, so style and complexity earn no credit',
    });
  });
  it('independent: the measured scores whatever the tests say', () => {
    expect(creditQuality(clean, [t('failed')], 'independent')).toMatchObject({ factor: 1, credited: clean });
  });
  it('an unmeasured criterion stays unmeasured, and skipped tests do not count', () => {
    expect(
      creditQuality({ style: null, complexity: 4 }, [t('passed'), t('failed'), t('skipped', 5)], 'scaled').credited,
    ).toEqual({ style: null, complexity: 2 });
    expect(passShare([t('skipped')])).toBeNull();
    expect(creditQuality(clean, [t('skipped')], 'scaled')).toMatchObject({
      factor: 1,
      credited: clean,
      reason: 'scaled: no test counts, so style and complexity are not adjusted',
    });
  });
  it('the rubric key defaults to scaled and refuses anything else', () => {
    const base = { id: 'r', title: 'R', language: 'javascript', statement: 's', entry: './leap', tests: ['t.js'] };
    expect(RubricSchema.parse(base).quality).toBe('scaled');
    expect(RubricSchema.parse({ ...base, quality: 'gated' }).quality).toBe('gated');
    expect(RubricSchema.safeParse({ ...base, quality: 'lenient' }).success).toBe(false);
  });
});

// POST /grade for the hostile suites: an inline rubric served by a one-rubric store, graded by the first isolating
// backend through the real HTTP app (inject), the report validated by the report schema.
import { ReportSchema, type Report } from '../../src/domain/report.js';
import { batchApp, inlineRubric, rubricService } from '../helpers.js';

const KEY = 'hostile-http-key';

/** Grades `files` against the inline rubric of `tests` (and `spec`, e.g. its language) over POST /grade. */
export async function gradeOverHttp(
  tests: Record<string, string>,
  files: Record<string, string>,
  spec: Record<string, unknown> = {},
): Promise<Report> {
  const rubric = inlineRubric(tests, spec);
  const { a: app } = await batchApp(await rubricService(rubric, { maxResumes: 2, concurrency: 1 }), KEY);
  try {
    const res = await app.inject({
      method: 'POST',
      url: '/grade',
      headers: { authorization: `Bearer ${KEY}` },
      payload: { rubric: rubric.spec.id, files },
    });
    if (res.statusCode !== 200) throw new Error(`POST /grade answered ${res.statusCode}: ${res.body}`);
    return ReportSchema.parse(res.json());
  } finally {
    await app.close();
  }
}

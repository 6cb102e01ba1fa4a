import { z } from 'zod';
import { ReportSchema, SummarySchema } from './report.js';
import { AuditReportSchema } from './audit.js';

/** The published JSON Schemas, generated from the same zod schemas the code validates with. */
export const reportJsonSchema = (): unknown => z.toJSONSchema(ReportSchema, { target: 'draft-2020-12' });
export const summaryJsonSchema = (): unknown => z.toJSONSchema(SummarySchema, { target: 'draft-2020-12' });
export const auditJsonSchema = (): unknown => z.toJSONSchema(AuditReportSchema, { target: 'draft-2020-12' });

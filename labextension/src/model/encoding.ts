/**
 * Reading a report from its stored form: a notebook output or a standalone page holds either the report or,
 * for a big one, an `EncodedReport` (schema minor 4; written by compiler/encoding.py): `schema_version` in the
 * clear, `encoding` 'gzip+base64', `data`. `loadReport` takes both and gives what `checkReport` gives, the
 * version refused before anything is decoded. The gzip is undone by the platform's `DecompressionStream`.
 */
import { checkReport, parsePayload, versionProblem, type ReportCheck } from './model';
import type { EncodedReport } from '../schema';

/** The encodings this renderer reads (the schema's `EncodedReport.encoding`). */
export const ENCODINGS: readonly EncodedReport['encoding'][] = ['gzip+base64'];

/** Is the payload a report's stored form rather than a report? */
export function isEncoded(value: object): value is EncodedReport {
  return 'encoding' in value && 'data' in value;
}

/**
 * Check a payload (a report, its stored form, or either as JSON text) and decode it when needed.
 */
export async function loadReport(data: unknown): Promise<ReportCheck> {
  const value = parsePayload(data);
  if ('ok' in value || !isEncoded(value)) {
    return checkReport(value);
  }
  const problem = versionProblem(value);
  if (problem) {
    return problem;
  }
  if (!ENCODINGS.includes(value.encoding)) {
    return {
      ok: false,
      kind: 'unsupported-version',
      message: `This report is stored as '${String(value.encoding)}', which this renderer cannot read: install the same dynamo-explorer version in the kernel and in JupyterLab.`
    };
  }
  let text: string;
  try {
    text = await gunzipBase64(value.data);
  } catch (error) {
    return {
      ok: false,
      kind: 'malformed',
      message: `This Dynamo Explorer output could not be decoded (${(error as Error).message}): re-run the cell.`
    };
  }
  return checkReport(text);
}

/** The UTF-8 text of base64 gzip data. */
export async function gunzipBase64(data: string): Promise<string> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  const body = new Response(bytes).body;
  if (!body) {
    throw new Error('no data');
  }
  return new Response(body.pipeThrough(new DecompressionStream('gzip'))).text();
}

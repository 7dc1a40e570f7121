/**
 * Words a report before minor 15 does not carry. Since minor 15 the engine writes them into the report
 * (compiler/summary.py: `cudagraphs_reason` into `cudagraphs[].reason_text`, `failure_what` into
 * `recompile_reasons[].failures[].what`) and the renderer reads them; these copies of the engine's rules only keep
 * a saved report of minors 6 to 14 reading as it did. Nothing else may call them: new words go into the engine.
 */
import type { CudaGraph, GuardFailure } from '../schema';

/** The prefixes inductor puts before a skip reason (sometimes twice). */
const SKIP_PREFIXES = ['skipping cudagraphs due to ', 'skipping cudagraph due to ', 'disabling cudagraphs due to '];

/** `cudagraphs_reason` of a report before minor 15: inductor's reason without its prefixes and stack trace. */
export function legacyReasonText(row: Pick<CudaGraph, 'reason'>): string {
  let text = (row.reason ?? '').trim();
  for (let again = true; again;) {
    again = false;
    for (const prefix of SKIP_PREFIXES) {
      if (text.startsWith(prefix)) {
        text = text.slice(prefix.length);
        again = true;
      }
    }
  }
  text = text.split('\n')[0].split('. Found from')[0].split(' Found from')[0].trim().replace(/\.$/, '');
  return text === 'multiple devices:' || text === 'multiple devices' ? 'no CUDA device' : text;
}

/** `failure_what` of a report before minor 15 (minors 6 to 14 have failures, without `what`). */
export function legacyFailureWhat(failure: GuardFailure): string {
  if (failure.property) {
    return failure.guard_type === 'TENSOR_MATCH' ? `${failure.property} mismatch` : `${failure.property} changed`;
  }
  if (failure.guard_type === 'ID_MATCH') {
    return 'is another object';
  }
  return failure.guard_type === 'TYPE_MATCH' ? 'has another type' : failure.check;
}
